package dev.kiln.samples.testing;

import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * javac with the Kiln processor, in this JVM, for tests that write kernels and compile them: the
 * test class path, every error reported (not just javac's first 100).
 */
public final class KilnJavac {
  private KilnJavac() {}

  /** Compiles {@code files} into {@code out} with {@code options}; returns the errors. */
  public static List<Diagnostic<? extends JavaFileObject>> compile(Path out, List<Path> files, String... options)
      throws IOException {
    return diagnostics(out, files, options).stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
  }

  /** Compiles {@code files} into {@code out}; returns the errors and Kiln's warnings ({@code [kiln.…]}). */
  public static List<Diagnostic<? extends JavaFileObject>> compileCleanly(Path out, List<Path> files) throws IOException {
    return diagnostics(out, files).stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR
        || d.getKind() == Diagnostic.Kind.WARNING && d.getMessage(java.util.Locale.ROOT).contains("[kiln.")).toList();
  }

  private static List<Diagnostic<? extends JavaFileObject>> diagnostics(Path out, List<Path> files, String... options)
      throws IOException {
    List<String> arguments = new ArrayList<>(List.of("-d", out.toString(), "-Xmaxerrs", "100000", "-classpath",
        System.getProperty("java.class.path")));
    arguments.addAll(List.of(options));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fileManager = javac.getStandardFileManager(diagnostics, null, null)) {
      JavaCompiler.CompilationTask task = javac.getTask(null, fileManager, diagnostics, arguments, null,
          fileManager.getJavaFileObjectsFromPaths(files));
      task.setProcessors(List.of(new KilnProcessor()));
      task.call();
    }
    return diagnostics.getDiagnostics();
  }
}
