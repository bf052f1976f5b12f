package dev.kiln.processor.lower;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.Element;

/** The variables a method body assigns, increments or decrements. */
final class AssignedVariables extends TreePathScanner<Void, Void> {
  private final Trees trees;
  private final Set<Element> assigned = new HashSet<>();

  private AssignedVariables(Trees trees) {
    this.trees = trees;
  }

  static Set<Element> in(Trees trees, CompilationUnitTree unit, MethodTree method) {
    AssignedVariables scanner = new AssignedVariables(trees);
    scanner.scan(new TreePath(TreePath.getPath(unit, method), method.getBody()), null);
    return scanner.assigned;
  }

  @Override
  public Void visitAssignment(AssignmentTree tree, Void unused) {
    note(tree.getVariable());
    return super.visitAssignment(tree, unused);
  }

  @Override
  public Void visitCompoundAssignment(CompoundAssignmentTree tree, Void unused) {
    note(tree.getVariable());
    return super.visitCompoundAssignment(tree, unused);
  }

  @Override
  public Void visitUnary(UnaryTree tree, Void unused) {
    switch (tree.getKind()) {
      case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
          note(tree.getExpression());
      default -> {}
    }
    return super.visitUnary(tree, unused);
  }

  private void note(ExpressionTree target) {
    if (target.getKind() == Tree.Kind.IDENTIFIER) {
      Element element = trees.getElement(new TreePath(getCurrentPath(), target));
      if (element != null) {
        assigned.add(element);
      }
    }
  }
}
