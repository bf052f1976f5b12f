package dev.kiln.processor.diag;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import java.util.Optional;

/**
 * A catalogued error at a tree, thrown by lowering and caught per statement; it knows the tree's
 * file once it has left a helper of another file.
 */
public final class KernelError extends RuntimeException {
  private final transient Tree tree;
  private final transient Diagnostic diagnostic;
  private final transient CompilationUnitTree unit;

  public KernelError(Tree tree, Diagnostic diagnostic) {
    this(tree, diagnostic, null);
  }

  private KernelError(Tree tree, Diagnostic diagnostic, CompilationUnitTree unit) {
    super(diagnostic.text(), null, false, false);
    this.tree = tree;
    this.diagnostic = diagnostic;
    this.unit = unit;
  }

  public Tree tree() {
    return tree;
  }

  public Diagnostic diagnostic() {
    return diagnostic;
  }

  /** The file of {@link #tree()}, if it is known to be other than the kernel's. */
  public Optional<CompilationUnitTree> unit() {
    return Optional.ofNullable(unit);
  }

  /** This error, its tree in {@code file} unless an inner helper's file was set already. */
  public KernelError in(CompilationUnitTree file) {
    return unit != null ? this : new KernelError(tree, diagnostic, file);
  }
}
