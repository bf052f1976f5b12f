package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.SplitForm;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
    String launcher =
        compilation
            .generatedSourceFile("corpus.SaxpyKernels")
            .orElseThrow(() -> new AssertionError("no launcher corpus.SaxpyKernels"))
            .getCharContent(true)
            .toString();
    Goldens.assertMatches("SaxpyKernels.java", launcher);
  }

  @Test
  void saxpyModuleMatchesItsGoldenDisassembly() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Saxpy.java"));
    Goldens.assertMatches(
        "Saxpy.saxpy.spvasm",
        SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Saxpy", "saxpy")));
  }

  /**
   * Every kernel of every corpus file compiles without a diagnostic and gets valid SPIR-V; a file
   * whose kernels call another class's helpers compiles with it.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("corpusFiles")
  void everyCorpusKernelIsValidSpirvForVulkan11(String name) {
    String fixture = "corpus/" + name + ".java";
    Compilation compilation =
        name.equals("CrossClass")
            ? Kernels.compile(Kernels.source(fixture), Kernels.source("corpus/ColorMath.java"))
            : Kernels.compile(Kernels.source(fixture));
    assertThat(compilation).succeededWithoutWarnings();
    List<JavaFileObject> modules =
        compilation.generatedFiles().stream()
            .filter(file -> file.getName().endsWith(".spv"))
            .toList();
    String text = Kernels.text(fixture);
    int kernels = text.split("@Kernel", -1).length - 1;
    long groups =
        java.util.regex.Pattern.compile("@FuseGroup\\((value = )?(\"\\w+\")")
            .matcher(text)
            .results()
            .map(match -> match.group(2))
            .distinct()
            .count();
    assertThat(modules).hasSize(kernels + (int) groups);
    for (JavaFileObject module : modules) {
      try (InputStream in = module.openInputStream()) {
        SpirvTools.validate(module.getName(), in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The corpus's files, by name; ColorMath holds helpers only, compiled with CrossClass. */
  static java.util.stream.Stream<String> corpusFiles()
      throws IOException, java.net.URISyntaxException {
    java.nio.file.Path corpus =
        java.nio.file.Path.of(ValidKernelsTest.class.getResource("/corpus").toURI());
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(corpus)) {
      List<String> names =
          files
              .map(file -> file.getFileName().toString().replace(".java", ""))
              .filter(name -> !name.equals("ColorMath"))
              .sorted()
              .toList();
      assertThat(names.size()).isAtLeast(21); // the listing found the corpus
      return names.stream();
    }
  }

  /**
   * Each argument of a library call is evaluated once: ten nested calls stay small (they made 7
   * MB).
   */
  @Test
  void nestedLibraryCallsGrowLinearly() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Misc.java"));
    assertThat(Kernels.module(compilation, "corpus", "Misc", "nestedLibraryCalls").length)
        .isLessThan(40_000);
  }

  /**
   * A spec constant that would be the class's own name ('K' for kernel 'k' of class 'K') is
   * renamed, not shadowing it.
   */
  @Test
  void aKernelWhoseConstantIsItsClassNameCompiles() {
    Compilation compilation =
        Kernels.compile(
            com.google.testing.compile.JavaFileObjects.forSourceLines(
                "test.IO",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "public final class IO {",
                "  @Kernel",
                "  static void io(int[] out) { out[Gpu.globalId(0)] = 1; }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
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
    String floats =
        SpirvTools.disassemble(Kernels.module(compilation, "corpus", "ElementaryOps", "floatOps"));
    assertThat(floats).contains("OpCapability Float64");
    assertThat(floats).containsMatch("OpFDiv %double");
    assertThat(floats).doesNotContainMatch("OpFDiv %float");
    assertThat(floats).doesNotContain("OpFRem");
    String ints =
        SpirvTools.disassemble(Kernels.module(compilation, "corpus", "ElementaryOps", "intOps"));
    assertThat(ints).doesNotContain("OpSRem");
    assertThat(ints).doesNotContain("OpCapability Float64");
  }

  @Test
  void elementwiseKernelsAreVectorizedUnlessTurnedOff() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Saxpy.java"));
    String vectorized =
        SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Saxpy", "saxpy"));
    assertThat(Kernels.description(compilation, "corpus", "Saxpy", "saxpy").elementsPerInvocation())
        .isEqualTo(4);
    assertThat(vectorized).contains("%v4float");
    Compilation scalar =
        Kernels.compile(List.of("-Akiln.vectorize=false"), Kernels.source("corpus/Saxpy.java"));
    String plain = SpirvTools.disassemble(Kernels.module(scalar, "corpus", "Saxpy", "saxpy"));
    assertThat(Kernels.description(scalar, "corpus", "Saxpy", "saxpy").elementsPerInvocation())
        .isEqualTo(1);
    assertThat(plain).doesNotContain("v4float");
    Compilation vectorizedCorpus = Kernels.compile(Kernels.source("corpus/Vectorized.java"));
    for (String kernel : List.of("square", "faulty")) {
      assertThat(
              Kernels.description(vectorizedCorpus, "corpus", "Vectorized", kernel)
                  .elementsPerInvocation())
          .isEqualTo(4);
    }
    // with a double buffer: 2 elements per invocation, 16-byte double vectors, 8-byte float vectors
    String mixed =
        SpirvTools.disassemble(Kernels.module(vectorizedCorpus, "corpus", "Vectorized", "mixed"));
    assertThat(
            Kernels.description(vectorizedCorpus, "corpus", "Vectorized", "mixed")
                .elementsPerInvocation())
        .isEqualTo(2);
    assertThat(mixed).contains("%v2double");
    assertThat(mixed).contains("%v2float");
    String square =
        SpirvTools.disassemble(Kernels.module(vectorizedCorpus, "corpus", "Vectorized", "square"));
    assertThat(square.split("OpLoad %v4float", -1))
        .hasLength(2); // x only: y is written by every element
    assertThat(square.split("OpStore %[0-9]+ %[0-9]+\\b", -1).length).isGreaterThan(1);
    // a kernel that reads another lane's element is not vectorized
    Compilation faults = Kernels.compile(Kernels.source("corpus/Faults.java"));
    assertThat(
            Kernels.description(faults, "corpus", "Faults", "readShifted").elementsPerInvocation())
        .isEqualTo(1);
  }

  /** A kernel's workgroup memory is described in bytes, each array's at its element's width. */
  @Test
  void descriptionsCountWorkgroupMemory() {
    Compilation compilation =
        Kernels.compile(
            com.google.testing.compile.JavaFileObjects.forSourceLines(
                "test.Shared",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Shared {",
                "  @Kernel(workgroup = 64)",
                "  static void huge(float[] out) {",
                "    float[] tile = Gpu.sharedFloats(1 << 18);",
                "    long[] wide = Gpu.sharedLongs(3);",
                "    int i = Gpu.globalId(0);",
                "    tile[Gpu.localId(0)] = i;",
                "    wide[0] = 1L;",
                "    Gpu.barrier();",
                "    if (i < out.length) {",
                "      out[i] = tile[63 - Gpu.localId(0)] + wide[0];",
                "    }",
                "  }",
                "}"));
    assertThat(compilation).succeeded();
    KernelDescription huge = Kernels.description(compilation, "test", "Shared", "huge");
    assertThat(huge.sharedBytes()).isEqualTo((1L << 20) + 3 * 8);
    assertThat(huge.usesBarriers()).isTrue();
  }

  /**
   * Workgroup arrays an int parameter sizes: one specialization constant per parameter, each
   * array's elements counted per unit of it, the constant arrays in the bytes; the module is valid.
   */
  @Test
  void descriptionsNameTheParametersThatSizeWorkgroupMemory() {
    Compilation compilation =
        Kernels.compile(
            com.google.testing.compile.JavaFileObjects.forSourceLines(
                "test.Sized",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Sized {",
                "  @Kernel(workgroup = 64)",
                "  static void sized(float[] out, int rows, int cols) {",
                "    float[] row = Gpu.sharedFloats(cols);",
                "    long[] wide = Gpu.sharedLongs(cols);",
                "    int[] fixed = Gpu.sharedInts(10);",
                "    double[] column = Gpu.sharedDoubles(rows);",
                "    int l = Gpu.localId(0);",
                "    if (l < cols) {",
                "      row[l] = l;",
                "      wide[l] = l;",
                "    }",
                "    if (l < rows) {",
                "      column[l] = l;",
                "    }",
                "    fixed[l % 10] = 1;",
                "    Gpu.barrier();",
                "    out[Gpu.globalId(0)] = row[cols - 1] + wide[0] + (float) column[0];",
                "  }",
                "}"));
    assertThat(compilation).succeeded();
    KernelDescription sized = Kernels.description(compilation, "test", "Sized", "sized");
    assertThat(sized.sharedLengths())
        .containsExactly(
            new dev.kiln.abi.SharedLength(
                2, dev.kiln.abi.LaunchAbi.SHARED_LENGTH_SPEC_IDS_FROM, 12),
            new dev.kiln.abi.SharedLength(
                1, dev.kiln.abi.LaunchAbi.SHARED_LENGTH_SPEC_IDS_FROM + 1, 8))
        .inOrder();
    assertThat(sized.sharedBytes()).isEqualTo(40);
    SpirvTools.validate("sized", Kernels.module(compilation, "test", "Sized", "sized"));
  }

  /**
   * A buffer without {@code @Buffer} that only tiles touch is described by what they do: the
   * runtime copies back and tracks buffers by the described access (a store of tiles described as a
   * read left the H200's results on the device).
   */
  @Test
  void describedAccessesCountTileLoadsAndStores() {
    Compilation compilation =
        Kernels.compile(
            com.google.testing.compile.JavaFileObjects.forSourceLines(
                "test.Tiles",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "import dev.kiln.matrix.MatrixAccumulator;",
                "import dev.kiln.matrix.MatrixLayout;",
                "final class Tiles {",
                "  @Kernel(workgroup = 32)",
                "  static void scale(float[] from, float[] to, float[] both) {",
                "    MatrixAccumulator tile = Gpu.loadAccumulator(from, 0, 16, MatrixLayout.ROW_MAJOR);",
                "    Gpu.storeAccumulator(tile, to, 0, 16, MatrixLayout.ROW_MAJOR);",
                "    MatrixAccumulator old = Gpu.loadAccumulator(both, 0, 16, MatrixLayout.ROW_MAJOR);",
                "    Gpu.storeAccumulator(Gpu.scaleAccumulator(old, 2f), both, 0, 16,"
                    + " MatrixLayout.COLUMN_MAJOR);",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(Kernels.description(compilation, "test", "Tiles", "scale").accesses())
        .containsExactly(
            dev.kiln.annotations.Access.READ,
            dev.kiln.annotations.Access.WRITE,
            dev.kiln.annotations.Access.READ_WRITE)
        .inOrder();
  }

  /**
   * A tile's scale and sum are computed as written, each element rounded as Java's float product
   * and sum are: decorated NoContraction, so that no driver fuses {@code α·c + β·old} into one
   * rounding (the CPU backend rounds twice).
   */
  @Test
  void tileScalesAndSumsAreNotContracted() {
    Compilation compilation =
        Kernels.compile(
            com.google.testing.compile.JavaFileObjects.forSourceLines(
                "test.Blend",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "import dev.kiln.matrix.MatrixAccumulator;",
                "import dev.kiln.matrix.MatrixLayout;",
                "final class Blend {",
                "  @Kernel(workgroup = 32)",
                "  static void blend(float[] from, float[] both) {",
                "    MatrixAccumulator c = Gpu.loadAccumulator(from, 0, 16, MatrixLayout.ROW_MAJOR);",
                "    MatrixAccumulator old = Gpu.loadAccumulator(both, 0, 16, MatrixLayout.ROW_MAJOR);",
                "    MatrixAccumulator sum = Gpu.addAccumulators(Gpu.scaleAccumulator(c, 0.75f),"
                    + " Gpu.scaleAccumulator(old, 0.5f));",
                "    Gpu.storeAccumulator(sum, both, 0, 16, MatrixLayout.ROW_MAJOR);",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    String text = SpirvTools.disassemble(Kernels.module(compilation, "test", "Blend", "blend"));
    java.util.List<String> results =
        text.lines()
            .filter(line -> line.contains("OpMatrixTimesScalar") || line.contains("OpFAdd"))
            .map(line -> line.trim().split(" ")[0])
            .toList();
    assertThat(results).hasSize(3); // two scales and their sum
    for (String result : results) {
      assertThat(text).contains("OpDecorate " + result + " NoContraction");
    }
  }

  @Test
  void modulesSayHowTheirLaunchesMaySplitAcrossDevices() {
    Compilation faults = Kernels.compile(Kernels.source("corpus/Faults.java"));
    // readShifted(in, out, shift): in is read at the id plus the scalar shift (parameter 2), out
    // written at the invocation's own index
    assertThat(Kernels.description(faults, "corpus", "Faults", "readShifted").split())
        .isEqualTo(
            new SplitForm(
                java.util.Map.of(
                    0,
                    SplitForm.Share.near(
                        java.util.List.of(
                            dev.kiln.abi.LaunchForm.ofScalars(0, java.util.Map.of("2", 1L)))),
                    1,
                    SplitForm.Share.sliced(1)),
                null));
    Compilation misc = Kernels.compile(Kernels.source("corpus/Misc.java"));
    assertThat(
            Kernels.description(misc, "corpus", "Misc", "atomicResultsWidened").split().refusal())
        .isEqualTo(
            "it atomically updates buffer 'counts' at 0 (line 179), not in"
                + " the block of Gpu.globalId(0) (s * Gpu.globalId(0) + c, 0 <= c < s, one s for every access): the devices'"
                + " ranges of ids would meet in its elements");
    Compilation races = Kernels.compile(Kernels.source("warnings/Races.java"));
    assertThat(Kernels.description(races, "test", "Races", "stagedTiles").split().refusal())
        .isEqualTo("it loads or stores matrix tiles, each of which spans the elements of many ids");
  }

  /**
   * A buffer only read at {@code globalId(0) + d}, each {@code d} the same for the whole launch,
   * names its offsets (what a sharded array's halo must hold), scalars and lengths by parameter
   * index; a read at any other index leaves it whole without offsets.
   */
  @Test
  void readsNearTheIdsNameTheirOffsets() {
    Compilation compilation =
        Kernels.compile(
            com.google.testing.compile.JavaFileObjects.forSourceLines(
                "test.Near",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Access;",
                "import dev.kiln.annotations.Buffer;",
                "import dev.kiln.annotations.Kernel;",
                "final class Near {",
                "  @Kernel(workgroup = 64)",
                "  static void near(@Buffer(Access.READ) float[] in, @Buffer(Access.READ) float[] far,",
                "      @Buffer(Access.WRITE) float[] out, int w) {",
                "    int i = Gpu.globalId(0);",
                "    if (i >= 2 * w && i + in.length < out.length) {",
                "      out[i] = in[i - 1] + in[i + w] + in[i - 2 * w] + in[i + in.length] + far[w];",
                "    }",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    SplitForm form = Kernels.description(compilation, "test", "Near", "near").split();
    assertThat(form.buffers().get(0).reach())
        .containsExactly(
            dev.kiln.abi.LaunchForm.of(-1),
            dev.kiln.abi.LaunchForm.ofScalars(0, java.util.Map.of("3", 1L)),
            dev.kiln.abi.LaunchForm.ofScalars(0, java.util.Map.of("3", -2L)),
            new dev.kiln.abi.LaunchForm(0, java.util.Map.of("n:0", 1L)));
    assertThat(form.buffers().get(1)).isEqualTo(SplitForm.Share.ALL);
    assertThat(form.buffers().get(2)).isEqualTo(SplitForm.Share.sliced(1));
  }

  @Test
  void dumpShowsIrModuleAndWhyEachKernelWasOrWasNotVectorized(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
    Compilation compilation =
        Kernels.compile(
            List.of("-Akiln.dump=" + dir),
            Kernels.source("corpus/Faults.java"),
            Kernels.source("corpus/Fusion.java"));
    assertThat(compilation).succeededWithoutWarnings();
    java.nio.file.Path corpus = dir.resolve("corpus");
    String unchecked = java.nio.file.Files.readString(corpus.resolve("Faults.unchecked.ir.txt"));
    assertThat(unchecked).startsWith("// kernel unchecked; vectorized: 4 elements per invocation");
    assertThat(unchecked).contains("vectorLoad(in, globalId(0))");
    String shifted = java.nio.file.Files.readString(corpus.resolve("Faults.readShifted.ir.txt"));
    assertThat(shifted)
        .contains("not vectorized: buffer 'in' is indexed at globalId(0) + scalar offset");
    String scan = java.nio.file.Files.readString(corpus.resolve("Fusion.scan.group.ir.txt"));
    assertThat(scan).contains("// group scan; not vectorized: it waits at barriers");
    assertThat(java.nio.file.Files.readAllBytes(corpus.resolve("Fusion.post.group.spv")))
        .isEqualTo(Kernels.module(compilation, "corpus", "Fusion", "post.group"));
    SpirvTools.requireDisassembler();
    assertThat(java.nio.file.Files.readString(corpus.resolve("Fusion.post.group.spvasm")))
        .contains("OpEntryPoint");
  }

  @Test
  void boundsChecksGuardEveryAccessUnlessTurnedOff() {
    Compilation compilation = Kernels.compile(Kernels.source("corpus/Faults.java"));
    String checked =
        SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Faults", "readShifted"));
    assertThat(checked).contains("OpArrayLength");
    assertThat(checked).contains("OpAtomicUMax");
    String unchecked =
        SpirvTools.disassemble(Kernels.module(compilation, "corpus", "Faults", "unchecked"));
    assertThat(unchecked).doesNotContain("OpAtomicUMax");
    Compilation scalar =
        Kernels.compile(List.of("-Akiln.vectorize=false"), Kernels.source("corpus/Faults.java"));
    String uncheckedScalar =
        SpirvTools.disassemble(Kernels.module(scalar, "corpus", "Faults", "unchecked"));
    assertThat(uncheckedScalar)
        .doesNotContain("OpArrayLength"); // the vector path reads lengths to stay in bounds
    assertThat(uncheckedScalar).doesNotContain("OpAtomicUMax");
  }
}
