package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;

import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.model.SignatureReader;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.VariableElement;

/**
 * {@code for} loops, and {@code for (T v : array)} over a buffer or a workgroup or private array.
 */
final class Loops {
  private final Trees trees;
  private final Scope scope;
  private final ExpressionLowering expressions;
  private final Statements statements;

  Loops(Trees trees, Scope scope, ExpressionLowering expressions, Statements statements) {
    this.trees = trees;
    this.scope = scope;
    this.expressions = expressions;
    this.statements = statements;
  }

  List<Stmt> forLoop(TreePath path, ForLoopTree loop) {
    List<Stmt> lowered = new ArrayList<>();
    for (StatementTree init : loop.getInitializer()) {
      lowered.addAll(statements.statement(child(path, init)));
    }
    Expr condition =
        loop.getCondition() == null
            ? new Expr.BoolConst(true)
            : expressions.expr(child(path, loop.getCondition()));
    List<Stmt> update = new ArrayList<>();
    for (ExpressionStatementTree step : loop.getUpdate()) {
      update.addAll(statements.statement(child(path, step)));
    }
    lowered.add(
        new Stmt.Loop(
            condition,
            true,
            statements.statement(child(path, loop.getStatement())),
            update,
            expressions.site(loop)));
    return lowered;
  }

  /**
   * {@code for (T v : array) body}, over a buffer parameter, a shared or private array, or a row of
   * a private array of two or three dimensions: as Java runs it, {@code for (int k = 0; k <
   * array.length; k++) { T v = array[k]; body }}, with {@code k} a local of its own. Over the rows
   * of such an array ({@code for (float[] row : t)}), {@code v} names row {@code k}.
   */
  List<Stmt> forEach(TreePath path, com.sun.source.tree.EnhancedForLoopTree loop) {
    ArrayRef array = expressions.array(child(path, loop.getExpression()));
    VariableTree variable = loop.getVariable();
    TreePath variablePath = child(path, variable);
    VariableElement element = (VariableElement) trees.getElement(variablePath);
    boolean overRows = array instanceof ArrayRef.Rows rows && !rows.lastLevel();
    PrimType type =
        overRows
            ? null
            : SignatureReader.primType(element.asType())
                .orElseThrow(
                    () -> {
                      scope.reject(element);
                      return UnsupportedTypes.error(variable, element.asType());
                    });
    Local value = overRows ? null : scope.declare(element, variable.getName().toString(), type);
    Local index = scope.temporary(variable.getName() + "Index", PrimType.INT);
    List<Stmt> lowered = new ArrayList<>();
    // the array named once, before the loop, whatever the body does
    if (array instanceof ArrayRef.Rows rows) {
      Local row = scope.temporary("row", PrimType.INT);
      lowered.add(new Stmt.Assign(row, rows.offset()));
      array = rows.startingAt(new Expr.LocalGet(row));
    }
    if (array instanceof ArrayRef.Chosen chosen) {
      Local named = scope.temporary("named", PrimType.INT);
      lowered.add(new Stmt.Assign(named, new Expr.LocalGet(chosen.selector())));
      array = chosen.selectedBy(named);
    }
    Expr length =
        switch (array) {
          case ArrayRef.Buffer buffer -> new Expr.Length(buffer.decl());
          case ArrayRef.Fixed fixed -> fixed.decl().length();
          case ArrayRef.Rows rows -> new Expr.IntConst(rows.length());
          case ArrayRef.Chosen chosen -> chosen.choose(Expr.Length::new);
        };
    Expr.LocalGet k = new Expr.LocalGet(index);
    Site site = expressions.site(loop.getExpression());
    List<Stmt> body = new ArrayList<>();
    if (overRows) {
      scope.bindArray(element, ((ArrayRef.Rows) array).row(k, site));
    } else {
      Expr read =
          switch (array) {
            case ArrayRef.Rows rows -> new Expr.Load(array.decl(), rows.at(k, site), site);
            case ArrayRef.Chosen chosen -> chosen.choose(buffer -> new Expr.Load(buffer, k, site));
            default -> new Expr.Load(array.decl(), k, site);
          };
      body.add(new Stmt.Assign(value, JavaArithmetic.convert(read, type)));
    }
    body.addAll(statements.statement(child(path, loop.getStatement())));
    lowered.addAll(
        List.of(
            new Stmt.Assign(index, new Expr.IntConst(0)),
            new Stmt.Loop(
                new Expr.Binary(BinaryOp.LT, k, length),
                true,
                body,
                List.of(
                    new Stmt.Assign(index, new Expr.Binary(BinaryOp.ADD, k, new Expr.IntConst(1)))),
                expressions.site(loop))));
    return lowered;
  }
}
