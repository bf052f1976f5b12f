package dev.kiln.processor.diag;

import com.sun.source.tree.Tree;

/** A catalogued error at a tree, thrown by lowering and caught per statement. */
public final class KernelError extends RuntimeException {
  private final transient Tree tree;
  private final Message kind;
  private final transient Object[] args;

  public KernelError(Tree tree, Message kind, Object... args) {
    super(kind.render(args), null, false, false);
    this.tree = tree;
    this.kind = kind;
    this.args = args;
  }

  public Tree tree() {
    return tree;
  }

  public Message kind() {
    return kind;
  }

  public Object[] args() {
    return args.clone();
  }
}
