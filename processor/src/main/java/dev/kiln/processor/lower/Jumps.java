package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;

import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Labelled loops, and where each {@code break} and {@code continue} goes. */
final class Jumps {
  private final Statements statements;

  /** The labels of the labelled statements being lowered, innermost first. */
  private final Deque<Label> labels = new ArrayDeque<>();

  Jumps(Statements statements) {
    this.statements = statements;
  }

  /**
   * The label a {@code break} (or {@code continue}) at {@code path} names, null for the innermost
   * loop (or switch, for a break). A jump with nowhere to go is javac's error, already reported.
   */
  Label target(TreePath path, javax.lang.model.element.Name name, boolean isBreak) {
    if (name != null) {
      return labels.stream()
          .filter(label -> label.name().contentEquals(name))
          .findFirst()
          .orElseThrow(AlreadyReported::new);
    }
    for (TreePath up = path.getParentPath(); up != null; up = up.getParentPath()) {
      switch (up.getLeaf().getKind()) {
        case FOR_LOOP, ENHANCED_FOR_LOOP, WHILE_LOOP, DO_WHILE_LOOP -> {
          return null;
        }
        case SWITCH -> {
          if (isBreak) {
            return null;
          }
        }
        case METHOD, LAMBDA_EXPRESSION, CLASS -> throw new AlreadyReported();
        default -> {}
      }
    }
    throw new AlreadyReported();
  }

  /**
   * A labelled loop keeps its label for labelled jumps; other labelled statements are not
   * supported.
   */
  List<Stmt> labelled(TreePath path, LabeledStatementTree tree) {
    Label label = new Label(tree.getLabel().toString());
    labels.push(label);
    List<Stmt> inner;
    try {
      inner = statements.statement(child(path, tree.getStatement()));
    } finally {
      labels.pop();
    }
    if (!inner.isEmpty() && inner.getLast() instanceof Stmt.Loop loop) {
      List<Stmt> labelledLoop = new ArrayList<>(inner);
      labelledLoop.set(inner.size() - 1, loop.withLabel(label));
      return labelledLoop;
    }
    if (Walk.anyStatement(inner, s -> s instanceof Stmt.Break(Label target) && target == label)) {
      throw new KernelError(
          tree, Errors.unsupportedLabel("break out of a statement that is not a loop"));
    }
    return inner;
  }
}
