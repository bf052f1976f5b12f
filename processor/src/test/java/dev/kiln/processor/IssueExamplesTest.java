package dev.kiln.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** The diagnostics a first user meets, checked for their exact file, line and wording. */
class IssueExamplesTest {
  @Test
  void stringLocalIsAnErrorOnItsLine() {
    JavaFileObject source =
        JavaFileObjects.forSourceLines(
            "test.Strings",
            "package test;",
            "import dev.kiln.Gpu;",
            "import dev.kiln.annotations.Kernel;",
            "final class Strings {",
            "  @Kernel",
            "  static void k(float[] x) {",
            "    int i = Gpu.globalId(0);",
            "    String label = \"x\" + i;",
            "    x[i] = 1f;",
            "  }",
            "}");
    Compilation compilation = Kernels.compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[kiln.unsupported.type] values of type java.lang.String are not supported in kernels; only the primitive"
                + " types are. Fix: ")
        .inFile(source)
        .onLineContaining("String label");
  }

  @Test
  void nonStaticKernelIsAnErrorOnTheMethod() {
    JavaFileObject source =
        JavaFileObjects.forSourceLines(
            "test.Instance",
            "package test;",
            "import dev.kiln.annotations.Kernel;",
            "final class Instance {",
            "  @Kernel",
            "  void scale(float[] x, float s) {}",
            "}");
    Compilation compilation = Kernels.compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining(
            "[kiln.kernel.notStatic] kernel 'scale' is an instance method; a kernel has no receiver object on the GPU."
                + " Fix: declare it 'static void scale(...)'.")
        .inFile(source)
        .onLineContaining("void scale(");
  }
}
