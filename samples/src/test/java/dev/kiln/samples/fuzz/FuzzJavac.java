package dev.kiln.samples.fuzz;

import dev.kiln.samples.testing.KilnJavac;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/** Compiles fuzz corpora with javac and the Kiln processor; kept apart from what runs kernels (see {@link FuzzCorpus}). */
final class FuzzJavac {
  private FuzzJavac() {}

  /** Compiles {@code corpus} into {@code out}; returns the errors. */
  static List<Diagnostic<? extends JavaFileObject>> compile(Path out, FuzzCorpus.Corpus corpus) throws IOException {
    return KilnJavac.compile(out, FuzzCorpus.write(out, corpus));
  }

  /**
   * Compiles {@code corpus} into {@code out}; returns the errors and Kiln's warnings (a race warning
   * on a valid kernel is a false alarm) as text, "file:line: message".
   */
  static List<String> compileErrors(Path out, FuzzCorpus.Corpus corpus) throws IOException {
    return KilnJavac.compileCleanly(out, FuzzCorpus.write(out, corpus)).stream()
        .map(error -> error.getSource().getName() + ":" + error.getLineNumber() + ": " + error.getMessage(Locale.ROOT))
        .toList();
  }
}
