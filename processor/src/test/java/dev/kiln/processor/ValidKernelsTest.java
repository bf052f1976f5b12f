package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The corpus of valid kernels (also run on devices by the samples module's tests) compiles, gets
 * its launchers, and gets SPIR-V that spirv-val accepts.
 */
class ValidKernelsTest {
  @Test
  void saxpyCompilesWithoutWarnings() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Saxpy.java"));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void saxpyLauncherMatchesItsGoldenFile() throws IOException {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Saxpy.java"));
    String launcher = compilation.generatedSourceFile("corpus.SaxpyKernels")
        .orElseThrow(() -> new AssertionError("no launcher corpus.SaxpyKernels"))
        .getCharContent(true)
        .toString();
    Goldens.assertMatches("SaxpyKernels.java", launcher);
  }

  @Test
  void saxpyModuleMatchesItsGoldenDisassembly() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Saxpy.java"));
    Goldens.assertMatches("Saxpy.saxpy.spvasm", SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Saxpy", "saxpy")));
  }

  @ParameterizedTest(name = "{0}#{2}")
  @CsvSource({
      "corpus/Saxpy.java, Saxpy, saxpy",
      "corpus/Loops.java, Loops, horner",
      "corpus/Loops.java, Loops, collatz",
      "corpus/Loops.java, Loops, digits",
      "corpus/Operators.java, Operators, integers",
      "corpus/Operators.java, Operators, floats",
      "corpus/Operators.java, Operators, ids",
      "corpus/Operators.java, Operators_Nested, fill",
      "corpus/ElementaryOps.java, ElementaryOps, intOps",
      "corpus/ElementaryOps.java, ElementaryOps, floatOps",
      "corpus/Faults.java, Faults, writeShifted",
      "corpus/Faults.java, Faults, readShifted",
      "corpus/Faults.java, Faults, divide",
      "corpus/Faults.java, Faults, unchecked",
      "corpus/MathOps.java, MathOps, exact",
      "corpus/MathOps.java, MathOps, transcendental",
      "corpus/WorkgroupOps.java, WorkgroupOps, reverseTiles",
      "corpus/WorkgroupOps.java, WorkgroupOps, sum",
      "corpus/WorkgroupOps.java, WorkgroupOps, atomics",
      "corpus/Switches.java, Switches, classic",
      "corpus/Switches.java, Switches, rules",
      "corpus/LabelledLoops.java, LabelledLoops, search",
      "corpus/Helpers.java, Helpers, useHelpers",
      "corpus/PrivateArrays.java, PrivateArrays, sortGroups",
      "corpus/PrivateArrays.java, PrivateArrays, weights",
      "corpus/PrivateArrays.java, PrivateArrays, outOfBounds",
      "corpus/Subgroups.java, Subgroups, invariants",
      "corpus/Wide.java, Wide, longs",
      "corpus/Wide.java, Wide, doubles",
  })
  void moduleIsValidSpirvForVulkan11(String fixture, String flatName, String kernel) {
    Compilation compilation = Kernels.compile(Kernels.source(fixture));
    assertThat(compilation).succeeded();
    SpirvTools.validate(flatName + "." + kernel, Kernels.module(compilation, "corpus", flatName, kernel));
  }

  @Test
  void nestedClassGetsItsOwnLauncher() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Operators.java"));
    assertThat(compilation).generatedSourceFile("corpus.Operators_NestedKernels").isNotNull();
  }

  @Test
  void readOnlyBufferIsDecoratedNonWritable() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Saxpy.java"));
    String text = SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Saxpy", "saxpy"));
    assertThat(text).contains("OpDecorate %x NonWritable");
    assertThat(text).doesNotContain("OpDecorate %y NonWritable");
    assertThat(text).contains("NoContraction");
  }

  /**
   * Guards what lavapipe cannot show: its OpFDiv and OpSRem happen to match Java, while NVIDIA's
   * OpFDiv is off by an ULP at times and its OpSRem takes the divisor's sign.
   */
  @Test
  void divisionAndRemainderAvoidTheInexactInstructions() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/ElementaryOps.java"));
    String floats = SpirvTools.disassemble(Kernels.module(compilation, "corpus", "ElementaryOps", "floatOps"));
    assertThat(floats).contains("OpCapability Float64");
    assertThat(floats).containsMatch("OpFDiv %double");
    assertThat(floats).doesNotContainMatch("OpFDiv %float");
    assertThat(floats).doesNotContain("OpFRem");
    String ints = SpirvTools.disassemble(Kernels.module(compilation, "corpus", "ElementaryOps", "intOps"));
    assertThat(ints).doesNotContain("OpSRem");
    assertThat(ints).doesNotContain("OpCapability Float64");
  }

  @Test
  void boundsChecksGuardEveryAccessUnlessTurnedOff() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Faults.java"));
    String checked = SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Faults", "readShifted"));
    assertThat(checked).contains("OpArrayLength");
    assertThat(checked).contains("OpAtomicCompareExchange");
    String unchecked = SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Faults", "unchecked"));
    assertThat(unchecked).doesNotContain("OpArrayLength");
    assertThat(unchecked).doesNotContain("OpAtomicCompareExchange");
  }
}
