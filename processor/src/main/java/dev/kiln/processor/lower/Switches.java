package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;

import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Switch statements on ints, and switch expressions whose cases run statements, with their yields.
 */
final class Switches {
  private final ExpressionLowering expressions;
  private final Statements statements;

  /** The switch expressions being lowered as statements, innermost first: where their yields go. */
  private final Deque<Exit> yields = new ArrayDeque<>();

  Switches(ExpressionLowering expressions, Statements statements) {
    this.expressions = expressions;
    this.statements = statements;
  }

  /** A switch on an int, with {@code case a:} (falling through) or {@code case a ->} cases. */
  Stmt statement(TreePath path, com.sun.source.tree.SwitchTree tree) {
    Expr selector = expressions.expr(child(path, tree.getExpression()));
    if (selector.type() != PrimType.INT) {
      throw UnsupportedTypes.error(tree.getExpression(), selector.type().javaName());
    }
    List<Stmt.Case> cases = new ArrayList<>();
    for (com.sun.source.tree.CaseTree branch : tree.getCases()) {
      TreePath casePath = child(path, branch);
      List<Integer> labels = SwitchValues.caseLabels(expressions, casePath, branch);
      boolean isDefault = labels.isEmpty();
      List<Stmt> body = new ArrayList<>();
      if (branch.getCaseKind() == com.sun.source.tree.CaseTree.CaseKind.RULE) {
        Tree rule = branch.getBody();
        body.addAll(
            rule instanceof StatementTree statement
                ? statements.statement(child(casePath, statement))
                : statements.effect(child(casePath, rule)));
        body.add(new Stmt.Break()); // a rule never falls through
      } else {
        body.addAll(statements.block(casePath, branch.getStatements()));
      }
      cases.add(new Stmt.Case(labels, isDefault, body));
    }
    return new Stmt.Switch(selector, cases);
  }

  /**
   * A switch expression whose cases run statements, its value going to {@code result}: a switch
   * statement in a block that runs once, where each case's value ({@code yield v;}, or the
   * expression of {@code case a -> v;}) is assigned to {@code result} and leaves the block.
   */
  List<Stmt> into(TreePath path, com.sun.source.tree.SwitchExpressionTree tree, Local result) {
    Expr selector = expressions.expr(child(path, tree.getExpression()));
    if (selector.type() != PrimType.INT) {
      throw UnsupportedTypes.error(tree.getExpression(), selector.type().javaName());
    }
    Label done = new Label("switch$" + result.name());
    yields.push(new Exit(done, result));
    try {
      List<Stmt.Case> cases = new ArrayList<>();
      for (com.sun.source.tree.CaseTree branch : tree.getCases()) {
        TreePath casePath = child(path, branch);
        List<Integer> labels = SwitchValues.caseLabels(expressions, casePath, branch);
        List<Stmt> body = new ArrayList<>();
        if (branch.getCaseKind() != com.sun.source.tree.CaseTree.CaseKind.RULE) {
          body.addAll(statements.block(casePath, branch.getStatements()));
        } else if (branch.getBody() instanceof com.sun.source.tree.ExpressionTree value) {
          body.add(
              new Stmt.Assign(result, expressions.expr(child(casePath, value), result.type())));
          body.add(new Stmt.Break(done));
        } else {
          body.addAll(statements.statement(child(casePath, branch.getBody())));
        }
        cases.add(new Stmt.Case(labels, labels.isEmpty(), body));
      }
      return List.of(Stmt.Loop.once(List.of(new Stmt.Switch(selector, cases)), done));
    } finally {
      yields.pop();
    }
  }

  /**
   * {@code yield v;}: its value to the innermost switch expression's result, and out of its block.
   */
  List<Stmt> yieldValue(TreePath path) {
    if (yields.isEmpty()) {
      throw new AlreadyReported(); // javac allows yield only inside a switch expression, and
      // reported it
    }
    Exit target = yields.getFirst();
    return List.of(
        new Stmt.Assign(
            target.result(),
            expressions.expr(
                child(path, ((com.sun.source.tree.YieldTree) path.getLeaf()).getValue()),
                target.result().type())),
        new Stmt.Break(target.label()));
  }
}
