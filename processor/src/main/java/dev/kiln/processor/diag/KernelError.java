package dev.kiln.processor.diag;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import java.util.List;
import java.util.Optional;

/**
 * A catalogued error at a tree, thrown by lowering and caught per statement; it knows the tree's
 * file once it has left a helper of another file.
 */
public final class KernelError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Tree tree;
  private final transient Diagnostic diagnostic;
  private final transient CompilationUnitTree unit;

  /**
   * Errors inside this one's tree, reported with it (the unsupported calls among a call's
   * arguments).
   */
  private final transient List<KernelError> inner;

  public KernelError(Tree tree, Diagnostic diagnostic) {
    this(tree, diagnostic, null, List.of());
  }

  private KernelError(
      Tree tree, Diagnostic diagnostic, CompilationUnitTree unit, List<KernelError> inner) {
    super(diagnostic.text(), null, false, false);
    this.tree = tree;
    this.diagnostic = diagnostic;
    this.unit = unit;
    this.inner = List.copyOf(inner);
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

  /** The errors inside this one's tree, to report with it. */
  public List<KernelError> inner() {
    return inner;
  }

  /** This error with {@code others}, found inside its tree, to report with it. */
  public KernelError besides(List<KernelError> others) {
    if (others.isEmpty()) {
      return this;
    }
    List<KernelError> all = new java.util.ArrayList<>(inner);
    all.addAll(others);
    return new KernelError(tree, diagnostic, unit, all);
  }

  /**
   * This error, its tree in {@code file} unless an inner helper's file was set already; its inner
   * ones too.
   */
  public KernelError in(CompilationUnitTree file) {
    return unit != null
        ? this
        : new KernelError(
            tree, diagnostic, file, inner.stream().map(error -> error.in(file)).toList());
  }
}
