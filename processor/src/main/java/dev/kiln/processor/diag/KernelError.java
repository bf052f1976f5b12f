package dev.kiln.processor.diag;

import com.sun.source.tree.Tree;

/** A catalogued error at a tree, thrown by lowering and caught per statement. */
public final class KernelError extends RuntimeException {
  private final transient Tree tree;
  private final transient Diagnostic diagnostic;

  public KernelError(Tree tree, Diagnostic diagnostic) {
    super(diagnostic.text(), null, false, false);
    this.tree = tree;
    this.diagnostic = diagnostic;
  }

  public Tree tree() {
    return tree;
  }

  public Diagnostic diagnostic() {
    return diagnostic;
  }
}
