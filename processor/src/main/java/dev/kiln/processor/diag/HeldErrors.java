package dev.kiln.processor.diag;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;

/**
 * Errors kept until it is known that they matter: those of a helper lowered before any kernel is
 * known to call it, reported when the first kernel does, and once.
 */
public final class HeldErrors implements ErrorSink {
  private record Held(Tree tree, CompilationUnitTree unit, Diagnostic diagnostic) {}

  private List<Held> held = new ArrayList<>();

  @Override
  public void error(Tree tree, CompilationUnitTree unit, Diagnostic diagnostic) {
    held.add(new Held(tree, unit, diagnostic));
  }

  /** Reports the held errors to {@code sink} the first time; later calls report nothing. */
  public void reportOnce(ErrorSink sink) {
    if (held != null) {
      held.forEach(error -> sink.error(error.tree(), error.unit(), error.diagnostic()));
      held = null;
    }
  }
}
