package dev.kiln.processor.lower;

import com.sun.source.tree.StatementTree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.ir.Stmt;
import java.util.List;

/**
 * What the lowerings of switches and loops ask of the kernel's statement lowering that made them
 * ({@link KernelLowering}): their bodies' statements as IR.
 */
interface Statements {
  /** The statement at {@code path}. */
  List<Stmt> statement(TreePath path);

  /** The statements of a block, a case or a method body, children of {@code parent}. */
  List<Stmt> block(TreePath parent, List<? extends StatementTree> statements);

  /** An expression statement: an assignment, an increment or a call. */
  List<Stmt> effect(TreePath path);
}
