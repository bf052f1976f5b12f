package dev.kiln.processor.lower;

import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Stmt;
import java.util.List;
import javax.lang.model.element.ExecutableElement;

/**
 * What expression lowering asks of statement lowering: the statements of a construct that stands
 * inside an expression and leaves its value in a local. Expression lowering wraps them in an {@code
 * Expr.Effect} at the construct's place, so they run where Java evaluates it: after the operands to
 * its left, and only where a condition chooses it.
 */
interface EmbeddedStatements {
  /**
   * A helper with statements, inlined, its value assigned to {@code result}.
   *
   * @param call the call's path
   * @param helper the helper
   * @param result the local that takes the helper's value
   * @return the statements
   */
  List<Stmt> helper(TreePath call, ExecutableElement helper, Local result);

  /**
   * A switch expression whose cases run statements, its value assigned to {@code result}.
   *
   * @param path the switch expression's path
   * @param tree the switch expression
   * @param result the local that takes its value
   * @return the statements
   */
  List<Stmt> switchExpression(TreePath path, SwitchExpressionTree tree, Local result);
}
