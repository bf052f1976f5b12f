package dev.kiln.processor.lower;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import dev.kiln.processor.SpirvTools;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Static helpers of another class compiled in the same javac run: lowered when javac has analyzed
 * their class and linked into the kernels that call them, under javac's default compile policy and
 * under -XDcompilePolicy=simple, in either order of the files, to the same module; their errors
 * reported in their own file, and only when a kernel calls them; compiled code, one error saying
 * why.
 */
class CrossClassHelpersTest {
  private static final List<String> SIMPLE = List.of("-XDcompilePolicy=simple");
  private static final JavaFileObject KERNELS = Kernels.source("corpus/CrossClass.java");
  private static final JavaFileObject HELPERS = Kernels.source("corpus/ColorMath.java");

  @Test
  void linkedToTheSameModuleInEitherOrderUnderEitherPolicy() {
    List<Compilation> compilations =
        List.of(
            Kernels.compile(KERNELS, HELPERS),
            Kernels.compile(HELPERS, KERNELS),
            Kernels.compile(SIMPLE, KERNELS, HELPERS),
            Kernels.compile(SIMPLE, HELPERS, KERNELS));
    byte[] first = null;
    for (Compilation compilation : compilations) {
      assertThat(compilation).succeededWithoutWarnings();
      byte[] module = Kernels.module(compilation, "corpus", "CrossClass", "toneMapped");
      SpirvTools.validate("toneMapped", module);
      if (first == null) {
        first = module;
      }
      assertThat(module).isEqualTo(first);
    }
  }

  @Test
  void anErrorInsideAnotherClassesHelperIsReportedInItsFileInEitherOrder() {
    JavaFileObject helpers =
        util("static float twice(float x) {", "  String label = \"x\";", "  return 2 * x;", "}");
    JavaFileObject kernels = filter("float", "float y = Util.twice(x[i]);", "x[i] = y;");
    for (Compilation compilation :
        List.of(Kernels.compile(kernels, helpers), Kernels.compile(helpers, kernels))) {
      assertThat(compilation).hadErrorCount(1);
      assertThat(compilation)
          .hadErrorContaining("[kiln.unsupported.type] values of type java.lang.String")
          .inFile(helpers)
          .onLine(4);
    }
  }

  @Test
  void aHelperNoKernelCallsReportsNothingThoughItSharesACalledName() {
    JavaFileObject helpers = util("static float twice(float x) {", "  return 2 * x;", "}");
    JavaFileObject other =
        JavaFileObjects.forSourceLines(
            "test.Other",
            "package test;",
            "final class Other {",
            "  static float twice(float x) {",
            "    String label = \"x\";",
            "    return x;",
            "  }",
            "}");
    JavaFileObject kernels = filter("float", "x[i] = Util.twice(x[i]);");
    assertThat(Kernels.compile(other, kernels, helpers)).succeededWithoutWarnings();
    assertThat(Kernels.compile(kernels, helpers, other)).succeededWithoutWarnings();
  }

  @Test
  void recursionThroughAnotherClassIsAnErrorAtTheCallThatCloses() {
    JavaFileObject helpers =
        util("static float down(float x) {", "  return x <= 1 ? x : Other.up(x / 2);", "}");
    JavaFileObject other =
        JavaFileObjects.forSourceLines(
            "test.Other",
            "package test;",
            "final class Other {",
            "  static float up(float x) {",
            "    return Util.down(x) + 1;",
            "  }",
            "}");
    JavaFileObject kernels = filter("float", "x[i] = Util.down(x[i]);");
    for (Compilation compilation :
        List.of(
            Kernels.compile(kernels, helpers, other), Kernels.compile(other, helpers, kernels))) {
      assertThat(compilation).hadErrorCount(1);
      assertThat(compilation)
          .hadErrorContaining(
              "[kiln.helper.recursion] down calls itself, directly or through other helpers")
          .inFile(other)
          .onLine(4);
    }
  }

  @Test
  void helpersCallIntoEachOthersClassesWithTheCallersArrays() {
    JavaFileObject helpers =
        util(
            "static void fill(float[] row, float v) {",
            "  for (int k = 0; k < row.length; k++) {",
            "    row[k] = Filters.scaled(v, k);",
            "  }",
            "}");
    JavaFileObject kernels =
        JavaFileObjects.forSourceLines(
            "test.Filters",
            "package test;",
            "import dev.kiln.Gpu;",
            "import dev.kiln.annotations.Kernel;",
            "final class Filters {",
            "  static float scaled(float v, int k) {",
            "    return v * (k + 1);",
            "  }",
            "  @Kernel",
            "  static void kernel(float[] x) {",
            "    int i = Gpu.globalId(0);",
            "    float[] row = new float[4];",
            "    Util.fill(row, x[i]);",
            "    Util.fill(row, row[3]);",
            "    x[i] = row[0] + row[3];",
            "  }",
            "}");
    for (Compilation compilation :
        List.of(Kernels.compile(kernels, helpers), Kernels.compile(helpers, kernels))) {
      assertThat(compilation).succeededWithoutWarnings();
      SpirvTools.validate("kernel", Kernels.module(compilation, "test", "Filters", "kernel"));
    }
  }

  @Test
  void overloadsAndAHelpersOwnArrayAreLinkedPerCall() {
    JavaFileObject helpers =
        util(
            "static int twice(int x) {",
            "  return 2 * x;",
            "}",
            "static float twice(float x) {",
            "  return 2f * x;",
            "}",
            "static float squares(float a, float b) {",
            "  float[] t = {a * a, b * b};",
            "  return t[0] + t[1];",
            "}");
    JavaFileObject kernels =
        filter(
            "float",
            "float a = Util.twice(x[i]) + Util.twice(i);",
            "x[i] = Util.squares(a, 1f) + Util.squares(Util.twice(a), a);");
    for (Compilation compilation :
        List.of(Kernels.compile(kernels, helpers), Kernels.compile(helpers, kernels))) {
      assertThat(compilation).succeededWithoutWarnings();
      SpirvTools.validate("kernel", Kernels.module(compilation, "test", "Filters", "kernel"));
    }
  }

  @Test
  void anAtomicOnAPrivateArrayPassedToAnotherClassIsAnErrorThere() {
    JavaFileObject helpers =
        util("static void bump(int[] counts) {", "  dev.kiln.Gpu.atomicAdd(counts, 0, 1);", "}");
    JavaFileObject kernels =
        filter("int", "int[] mine = new int[2];", "Util.bump(mine);", "x[i] = mine[0];");
    Compilation compilation = Kernels.compile(kernels, helpers);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("[kiln.atomic.target]").inFile(helpers).onLine(4);
  }

  @Test
  void compiledCodeIsAnErrorSayingWhy() {
    JavaFileObject kernels = filter("int", "x[i] = com.google.common.math.IntMath.pow(x[i], 2);");
    Compilation compilation = Kernels.compile(kernels);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[kiln.helper.compiled] IntMath.pow is compiled code, from a library"
                + " or an earlier build")
        .inFile(kernels)
        .onLine(8);
  }

  /** {@code test.Util} with {@code members}, starting on line 3. */
  private static JavaFileObject util(String... members) {
    List<String> lines = new java.util.ArrayList<>(List.of("package test;", "final class Util {"));
    for (String line : members) {
      lines.add("  " + line);
    }
    lines.add("}");
    return JavaFileObjects.forSourceLines("test.Util", lines);
  }

  /**
   * {@code test.Filters} with one kernel over an {@code elementType[] x}: its body lines start on
   * line 8.
   */
  private static JavaFileObject filter(String elementType, String... body) {
    List<String> lines =
        new java.util.ArrayList<>(
            List.of(
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Filters {",
                "  @Kernel",
                "  static void kernel(" + elementType + "[] x) {",
                "    int i = Gpu.globalId(0);"));
    for (String line : body) {
      lines.add("    " + line);
    }
    lines.addAll(List.of("  }", "}"));
    return JavaFileObjects.forSourceLines("test.Filters", lines);
  }
}
