package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import org.eclipse.jdt.internal.compiler.tool.EclipseCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the Eclipse compiler (ecj, inside Eclipse and VS Code's Java tooling), which has no javac
 * Tree API, every kernel gets one error on its line saying so and how to build instead: never a
 * build that passes without launchers.
 */
class OtherCompilersTest {
  @Test
  void ecjReportsEachKernelOnce(@TempDir Path dir) throws IOException {
    Path source = dir.resolve("test/Two.java");
    Files.createDirectories(source.getParent());
    Files.writeString(
        source,
        String.join(
            "\n",
            "package test;",
            "import dev.kiln.Gpu;",
            "import dev.kiln.annotations.Kernel;",
            "final class Two {",
            "  @Kernel",
            "  static void first(int[] out) {",
            "    out[Gpu.globalId(0)] = 1;",
            "  }",
            "  @Kernel",
            "  static void second(int[] out) {",
            "    out[Gpu.globalId(0)] = 2;",
            "  }",
            "}"));
    JavaCompiler ecj = new EclipseCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        ecj.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
      // ecj prints its report to standard error unless given a writer: the test reads the
      // diagnostics instead
      JavaCompiler.CompilationTask task =
          ecj.getTask(
              new java.io.StringWriter(),
              files,
              diagnostics,
              List.of(
                  "-21",
                  "-d",
                  dir.resolve("out").toString(),
                  "-cp",
                  System.getProperty("java.class.path")),
              null,
              files.getJavaFileObjects(source));
      task.setProcessors(List.of(new KilnProcessor()));
      assertThat(task.call()).isFalse();
    }
    List<String> errors =
        diagnostics.getDiagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .sorted(java.util.Comparator.comparingLong(Diagnostic::getLineNumber))
            .map(d -> d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
            .toList();
    String message =
        "[kiln.compiler] kernel '%s' is not compiled: Kiln compiles kernel bodies from javac's Tree API"
            + " (com.sun.source), which this compiler (ecj, the Eclipse compiler) does not offer. Fix: build with javac, as"
            + " Maven and Gradle do by default; Eclipse and VS Code's Java tooling compile with ecj, so turn annotation"
            + " processing off for the project there and let the Maven or Gradle build make the launchers (IntelliJ IDEA"
            + " builds with javac and needs nothing).";
    assertThat(errors)
        .containsExactly("6: " + message.formatted("first"), "10: " + message.formatted("second"))
        .inOrder();
  }
}
