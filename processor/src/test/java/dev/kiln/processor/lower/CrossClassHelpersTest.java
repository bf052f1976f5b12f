package dev.kiln.processor.lower;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import dev.kiln.processor.SpirvTools;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Static helpers of another class compiled in the same javac run: inlined under
 * -XDcompilePolicy=simple (in either order of the files), with their errors reported in their own
 * file; without it, one error at the call saying what to add; compiled code, one error saying why.
 */
class CrossClassHelpersTest {
  private static final List<String> SIMPLE = List.of("-XDcompilePolicy=simple");
  private static final JavaFileObject KERNELS = Kernels.source("corpus/CrossClass.java");
  private static final JavaFileObject HELPERS = Kernels.source("corpus/ColorMath.java");

  @Test
  void inlinedUnderTheSimpleCompilePolicyInEitherOrder() {
    for (Compilation compilation : List.of(Kernels.compile(SIMPLE, KERNELS, HELPERS), Kernels.compile(SIMPLE, HELPERS, KERNELS))) {
      assertThat(compilation).succeededWithoutWarnings();
      SpirvTools.validate("toneMapped", Kernels.module(compilation, "corpus", "CrossClass", "toneMapped"));
    }
  }

  @Test
  void withoutThePolicyTheCallIsAnErrorNamingIt() {
    for (Compilation compilation : List.of(Kernels.compile(KERNELS, HELPERS), Kernels.compile(HELPERS, KERNELS))) {
      assertThat(compilation).failed();
      assertThat(compilation).hadErrorContaining("[kiln.helper.otherClass] ColorMath.luminance is a static method of"
              + " ColorMath, which javac attributes and lowers apart from this kernel's class")
          .inFile(KERNELS).onLineContaining("ColorMath.luminance(");
      assertThat(compilation).hadErrorContaining("Fix: compile with the javac option -XDcompilePolicy=simple");
    }
  }

  @Test
  void anErrorInsideAnotherClassesHelperIsReportedInItsFile() {
    JavaFileObject helpers = JavaFileObjects.forSourceLines("test.Util",
        "package test;",
        "final class Util {",
        "  static float twice(float x) {",
        "    String label = \"x\";",
        "    return 2 * x;",
        "  }",
        "}");
    JavaFileObject kernels = filter("float", "float y = Util.twice(x[i]);", "x[i] = y;");
    Compilation compilation = Kernels.compile(SIMPLE, kernels, helpers);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("[kiln.unsupported.type] values of type java.lang.String")
        .inFile(helpers).onLine(4);
  }

  @Test
  void compiledCodeIsAnErrorSayingWhy() {
    JavaFileObject kernels = filter("int", "x[i] = com.google.common.math.IntMath.pow(x[i], 2);");
    Compilation compilation = Kernels.compile(SIMPLE, kernels);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("[kiln.helper.compiled] IntMath.pow is compiled code, from a library"
        + " or an earlier build").inFile(kernels).onLine(8);
  }

  /** {@code test.Filters} with one kernel over an {@code elementType[] x}: its body lines start on line 8. */
  private static JavaFileObject filter(String elementType, String... body) {
    List<String> lines = new java.util.ArrayList<>(List.of("package test;", "import dev.kiln.Gpu;",
        "import dev.kiln.annotations.Kernel;", "final class Filters {", "  @Kernel",
        "  static void kernel(" + elementType + "[] x) {", "    int i = Gpu.globalId(0);"));
    for (String line : body) {
      lines.add("    " + line);
    }
    lines.addAll(List.of("  }", "}"));
    return JavaFileObjects.forSourceLines("test.Filters", lines);
  }
}
