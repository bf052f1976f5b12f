package dev.kiln.processor.lower;

import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;

/**
 * What the lowerings of calls, helpers and matrices ask of the expression lowering that made them
 * ({@link ExpressionLowering}): arguments and helper bodies as IR, arrays, sites and types. They
 * know it by this, so that it may build them without a cycle of files.
 */
interface Expressions {
  /** The expression at {@code path} as IR, of javac's type. */
  Expr expr(TreePath path);

  /** The expression at {@code path} as IR, converted to {@code type}. */
  Expr expr(TreePath path, PrimType type);

  /** The array at {@code path}: a buffer, or a workgroup or private array. */
  ArrayRef array(TreePath path);

  /** The site of {@code tree}, for IR nodes that may fail or conflict. */
  Site site(Tree tree);

  /** javac's type of the value at {@code path}, which must be one the kernel language has. */
  PrimType valueType(TreePath path);

  /**
   * {@code lowered}, where it is an integer division or remainder, at the site of {@code tree}, for
   * its fault's line.
   */
  Expr faulting(Expr lowered, Tree tree);

  /**
   * The local that an assignment to the name at {@code target} assigns; a field or a buffer is an
   * error.
   */
  Local assignedLocal(TreePath target);
}
