package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import java.util.ArrayList;
import java.util.List;

/** Switch expressions as values, and the constant labels of any switch's cases. */
final class SwitchValues {
  private final Expressions expressions;
  private final Scope scope;
  private final EmbeddedStatements embedded;

  SwitchValues(Expressions expressions, Scope scope, EmbeddedStatements embedded) {
    this.expressions = expressions;
    this.scope = scope;
    this.embedded = embedded;
  }

  /**
   * A switch expression on an int whose cases are all {@code case a, b -> value}: the selector
   * evaluated once, then the value of the first case that holds it, else the default's. Cases that
   * run statements are lowered as statements where the switch is a local's whole value ({@code
   * KernelLowering}); anywhere else they are reported.
   */
  Expr value(TreePath path, com.sun.source.tree.SwitchExpressionTree tree, PrimType type) {
    if (tree.getCases().stream()
        .anyMatch(
            branch ->
                branch.getCaseKind() != com.sun.source.tree.CaseTree.CaseKind.RULE
                    || !(branch.getBody()
                        instanceof ExpressionTree))) { // cases that run statements
      Local result = scope.temporary("switch", type);
      return new Expr.Effect(
          embedded.switchExpression(path, tree, result), new Expr.LocalGet(result));
    }
    Expr selector = expressions.expr(child(path, tree.getExpression()));
    if (selector.type().promoted() != PrimType.INT) {
      throw UnsupportedTypes.error(tree.getExpression(), selector.type().javaName());
    }
    Local chosen = Local.fresh("selector", PrimType.INT);
    Expr otherwise = null;
    List<Expr> conditions = new ArrayList<>();
    List<Expr> values = new ArrayList<>();
    for (com.sun.source.tree.CaseTree branch : tree.getCases()) {
      TreePath casePath = child(path, branch);
      Expr value = expressions.expr(child(casePath, (ExpressionTree) branch.getBody()), type);
      Expr matches = null;
      for (int label : caseLabels(expressions, casePath, branch)) {
        Expr test =
            new Expr.Binary(BinaryOp.EQ, new Expr.LocalGet(chosen), new Expr.IntConst(label));
        matches =
            matches == null ? test : new Expr.Conditional(matches, new Expr.BoolConst(true), test);
      }
      if (matches == null) {
        otherwise = value;
      } else {
        conditions.add(matches);
        values.add(value);
      }
    }
    if (otherwise == null) {
      throw new AlreadyReported(); // javac demands a default of a switch expression on an int, and
      // reported it
    }
    Expr result = otherwise;
    for (int k = conditions.size() - 1; k >= 0; k--) {
      result = new Expr.Conditional(conditions.get(k), values.get(k), result);
    }
    return new Expr.Let(chosen, selector, result);
  }

  /** The constant labels of a case ({@code case 1, 2}); none for {@code default}. */
  static List<Integer> caseLabels(
      Expressions expressions, TreePath casePath, com.sun.source.tree.CaseTree branch) {
    List<Integer> labels = new ArrayList<>();
    for (ExpressionTree label : branch.getExpressions()) {
      if (!(Constants.fold(expressions.expr(child(casePath, label)))
          instanceof Expr.IntConst(int value))) {
        throw new KernelError(label, Errors.unsupportedExpression("a non-constant case label"));
      }
      labels.add(value);
    }
    boolean isDefault =
        branch.getLabels().stream()
            .anyMatch(label -> label.getKind() == Tree.Kind.DEFAULT_CASE_LABEL);
    if (labels.isEmpty() && !isDefault) {
      throw new KernelError(branch, Errors.unsupportedExpression("a pattern case"));
    }
    return labels;
  }
}
