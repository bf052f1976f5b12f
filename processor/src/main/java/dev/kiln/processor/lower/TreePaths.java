package dev.kiln.processor.lower;

import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;

/** Paths into javac's attributed trees, and words for the trees the kernel language lacks. */
final class TreePaths {
  private TreePaths() {}

  /** The path of {@code tree}, a child of {@code parent}'s leaf. */
  static TreePath child(TreePath parent, Tree tree) {
    return new TreePath(parent, tree);
  }

  /** {@code path} without the parentheses around its expression, if any. */
  static TreePath unparenthesized(TreePath path) {
    while (path.getLeaf() instanceof ParenthesizedTree parenthesized) {
      path = child(path, parenthesized.getExpression());
    }
    return path;
  }

  /** A few words for an unsupported tree: its kind, in lower case. */
  static String describe(Tree tree) {
    return switch (tree.getKind()) {
      case NEW_CLASS -> "creating an object";
      case NEW_ARRAY -> "creating an array here";
      case LAMBDA_EXPRESSION -> "a lambda";
      case MEMBER_REFERENCE -> "a method reference";
      case INSTANCE_OF -> "instanceof";
      default -> "a " + tree.getKind().name().toLowerCase().replace('_', ' ') + " expression";
    };
  }
}
