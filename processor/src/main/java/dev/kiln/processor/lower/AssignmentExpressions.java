package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.JavaArithmetic.binary;
import static dev.kiln.processor.lower.JavaArithmetic.compound;
import static dev.kiln.processor.lower.JavaArithmetic.convert;
import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/** Assignments, compound assignments, increments and decrements inside expressions. */
final class AssignmentExpressions {
  private final Expressions expressions;
  private final Scope scope;

  AssignmentExpressions(Expressions expressions, Scope scope) {
    this.expressions = expressions;
    this.scope = scope;
  }

  /**
   * An assignment, compound assignment, increment or decrement inside an expression: its
   * statements, in Java's order (JLS 15.26, 15.14, 15.15), and the value Java gives the expression:
   * the variable's new value, or its old one for {@code x++} and {@code x--}.
   */
  Expr lower(TreePath path) {
    Tree tree = path.getLeaf();
    TreePath target =
        unparenthesized(
            child(
                path,
                switch (tree) {
                  case com.sun.source.tree.AssignmentTree assignment -> assignment.getVariable();
                  case com.sun.source.tree.CompoundAssignmentTree compound ->
                      compound.getVariable();
                  default -> ((UnaryTree) tree).getExpression();
                }));
    List<Stmt> statements = new ArrayList<>();
    Variable variable = variable(target, statements);
    PrimType type = variable.type();
    if (tree instanceof UnaryTree) {
      Tree.Kind kind = tree.getKind();
      BinaryOp op =
          kind == Tree.Kind.PREFIX_INCREMENT || kind == Tree.Kind.POSTFIX_INCREMENT
              ? BinaryOp.ADD
              : BinaryOp.SUB;
      Local old = scope.temporary("old", type);
      Local next = scope.temporary("next", type);
      statements.add(new Stmt.Assign(old, variable.read()));
      statements.add(
          new Stmt.Assign(
              next, convert(binary(op, new Expr.LocalGet(old), new Expr.IntConst(1), type), type)));
      statements.addAll(variable.write(new Expr.LocalGet(next)));
      boolean postfix = kind == Tree.Kind.POSTFIX_INCREMENT || kind == Tree.Kind.POSTFIX_DECREMENT;
      return new Expr.Effect(statements, new Expr.LocalGet(postfix ? old : next));
    }
    Expr result;
    if (tree instanceof com.sun.source.tree.CompoundAssignmentTree compound) {
      Local current =
          scope.temporary(
              "current", type); // an array element is fetched before the right side runs
      statements.add(new Stmt.Assign(current, variable.read()));
      Expr value = expressions.expr(child(path, compound.getExpression()));
      result =
          convert(
              expressions.faulting(
                  compound(tree.getKind(), new Expr.LocalGet(current), value, type), tree),
              type);
    } else {
      result =
          expressions.expr(
              child(path, ((com.sun.source.tree.AssignmentTree) tree).getExpression()), type);
    }
    Local assigned = scope.temporary("assigned", type);
    statements.add(new Stmt.Assign(assigned, result));
    statements.addAll(variable.write(new Expr.LocalGet(assigned)));
    return new Expr.Effect(statements, new Expr.LocalGet(assigned));
  }

  /**
   * The target of an assignment inside an expression: a local, or an array element at an index of
   * temporaries, each evaluated once (its last dimension's check, for a private array of two or
   * three, where the element is read or written, as Java checks an index).
   */
  private record Variable(PrimType type, Local local, ArrayRef array, Expr index, Site site) {
    Expr read() {
      if (local != null) {
        return new Expr.LocalGet(local);
      }
      return array instanceof ArrayRef.Chosen chosen
          ? chosen.choose(buffer -> new Expr.Load(buffer, index, site))
          : new Expr.Load(array.decl(), index, site);
    }

    List<Stmt> write(Expr value) {
      if (local != null) {
        return List.of(new Stmt.Assign(local, value));
      }
      return array instanceof ArrayRef.Chosen chosen
          ? chosen.chooseStatements(buffer -> new Stmt.Store(buffer, index, value, site))
          : List.of(new Stmt.Store(array.decl(), index, value, site));
    }
  }

  /**
   * The variable at {@code target}; an array element's index is evaluated into {@code statements}
   * first.
   */
  private Variable variable(TreePath target, List<Stmt> statements) {
    Tree tree = target.getLeaf();
    if (tree instanceof ArrayAccessTree access) {
      ArrayRef array = expressions.array(child(target, access.getExpression()));
      Site site = expressions.site(access);
      Local index = scope.temporary("index", PrimType.INT);
      if (!(array instanceof ArrayRef.Rows rows)) {
        statements.add(
            new Stmt.Assign(
                index, expressions.expr(child(target, access.getIndex()), PrimType.INT)));
        return new Variable(array.element(), null, array, new Expr.LocalGet(index), site);
      }
      Local row = scope.temporary("row", PrimType.INT);
      statements.add(new Stmt.Assign(row, rows.offset()));
      statements.add(
          new Stmt.Assign(index, expressions.expr(child(target, access.getIndex()), PrimType.INT)));
      Expr flat = rows.startingAt(new Expr.LocalGet(row)).at(new Expr.LocalGet(index), site);
      return new Variable(array.element(), null, array, flat, site);
    }
    Local local = expressions.assignedLocal(target);
    return new Variable(local.type(), local, null, null, null);
  }
}
