package dev.kiln.processor.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a body node by node. Subclasses override the hooks (locals, arrays, labels) to rename,
 * or {@link #statement} and {@link #expression} to replace nodes, calling {@code super} for the
 * default: the same node with rewritten parts.
 */
public class Rewriter {
  /** The local that replaces {@code local}. */
  protected Local local(Local local) {
    return local;
  }

  /** The array that replaces {@code array}; a buffer's replacement must be a buffer. */
  protected ArrayDecl array(ArrayDecl array) {
    return array;
  }

  /** The loop label that replaces {@code label}; null stays null. */
  protected Label label(Label label) {
    return label;
  }

  public final List<Stmt> statements(List<Stmt> body) {
    List<Stmt> out = new ArrayList<>(body.size());
    for (Stmt statement : body) {
      out.addAll(statement(statement));
    }
    return out;
  }

  /**
   * The statements that replace a nested block: a branch, a loop's body or update, a case, an
   * effect's statements. {@link #statements} by default; a pass that rewrites a block as a whole
   * (several statements at once) overrides this.
   */
  protected List<Stmt> block(List<Stmt> body) {
    return statements(body);
  }

  /** {@code op} with its scalars and array rewritten. */
  private MatrixOp matrixOp(MatrixOp op) {
    MatrixOp rewritten = op.withScalars(op.scalars().stream().map(this::expression).toList());
    return switch (rewritten) {
      case MatrixOp.Load load ->
          new MatrixOp.Load(
              load.target(),
              array(load.array()),
              load.offset(),
              load.stride(),
              load.columnMajor(),
              load.element());
      case MatrixOp.Store store ->
          new MatrixOp.Store(
              store.source(),
              array(store.array()),
              store.offset(),
              store.stride(),
              store.columnMajor());
      default -> rewritten;
    };
  }

  /** The site that replaces {@code site} (null for none). */
  protected Site site(Site site) {
    return site;
  }

  /** The statements that replace {@code statement}. */
  public List<Stmt> statement(Stmt statement) {
    return List.of(
        switch (statement) {
          case Stmt.Assign assign ->
              new Stmt.Assign(local(assign.local()), expression(assign.value()));
          case Stmt.Store store ->
              new Stmt.Store(
                  array(store.array()),
                  expression(store.index()),
                  expression(store.value()),
                  site(store.site()));
          case Stmt.Atomic atomic ->
              new Stmt.Atomic(
                  atomic.result() == null ? null : local(atomic.result()),
                  atomic.op(),
                  array(atomic.array()),
                  expression(atomic.index()),
                  expression(atomic.value()),
                  atomic.expected() == null ? null : expression(atomic.expected()),
                  site(atomic.site()));
          case Stmt.ClearArray clear -> new Stmt.ClearArray((PrivateArray) array(clear.array()));
          case Stmt.DeclareShared declare ->
              new Stmt.DeclareShared((SharedArray) array(declare.array()));
          case Stmt.VectorLoad load ->
              new Stmt.VectorLoad(
                  (BufferDecl) array(load.buffer()),
                  expression(load.vector()),
                  load.lanes().stream().map(this::local).toList());
          case Stmt.VectorStore store ->
              new Stmt.VectorStore(
                  (BufferDecl) array(store.buffer()),
                  expression(store.vector()),
                  store.lanes().stream().map(this::expression).toList());
          case Stmt.Barrier barrier -> barrier;
          case Stmt.Matrix matrix -> new Stmt.Matrix(matrixOp(matrix.op()), site(matrix.site()));
          case Stmt.Copy copy ->
              new Stmt.Copy(
                  array(copy.source()),
                  expression(copy.sourceIndex()),
                  array(copy.target()),
                  expression(copy.targetIndex()),
                  copy.length(),
                  site(copy.site()));
          case Stmt.If branch ->
              new Stmt.If(
                  expression(branch.condition()), block(branch.then()), block(branch.otherwise()));
          case Stmt.Loop loop ->
              new Stmt.Loop(
                  expression(loop.condition()),
                  loop.testFirst(),
                  block(loop.body()),
                  block(loop.update()),
                  labelOrNull(loop.label()),
                  site(loop.site()),
                  loop.unroll());
          case Stmt.Switch choice ->
              new Stmt.Switch(
                  expression(choice.selector()),
                  choice.cases().stream()
                      .map(c -> new Stmt.Case(c.labels(), c.isDefault(), block(c.body())))
                      .toList());
          case Stmt.Break jump -> new Stmt.Break(labelOrNull(jump.label()));
          case Stmt.Continue jump -> new Stmt.Continue(labelOrNull(jump.label()));
          case Stmt.Return ret -> ret;
          case Stmt.Call call ->
              new Stmt.Call(
                  call.helper(),
                  call.owner(),
                  call.arguments().stream().map(this::expression).toList(),
                  call.arrays().stream().map(this::array).toList(),
                  call.result() == null ? null : local(call.result()),
                  site(call.site()));
        });
  }

  /** The expression that replaces {@code expression}. */
  public Expr expression(Expr expression) {
    return switch (expression) {
      case Expr.LocalGet get -> new Expr.LocalGet(local(get.local()));
      case Expr.Load load ->
          new Expr.Load(array(load.array()), expression(load.index()), site(load.site()));
      case Expr.Checked checked ->
          new Expr.Checked(expression(checked.index()), checked.length(), site(checked.site()));
      case Expr.Length length -> new Expr.Length((BufferDecl) array(length.buffer()));
      case Expr.Unary unary -> new Expr.Unary(unary.op(), expression(unary.operand()));
      case Expr.Binary binary ->
          new Expr.Binary(
              binary.op(),
              expression(binary.left()),
              expression(binary.right()),
              binary.type(),
              site(binary.site()));
      case Expr.Call call ->
          new Expr.Call(
              call.function(),
              call.arguments().stream().map(this::expression).toList(),
              site(call.site()));
      case Expr.Convert convert -> new Expr.Convert(convert.type(), expression(convert.value()));
      case Expr.Conditional conditional ->
          new Expr.Conditional(
              expression(conditional.condition()),
              expression(conditional.then()),
              expression(conditional.otherwise()));
      case Expr.Let let ->
          new Expr.Let(local(let.local()), expression(let.value()), expression(let.body()));
      case Expr.Effect effect ->
          new Expr.Effect(block(effect.statements()), expression(effect.value()));
      case Expr.IntConst c -> c;
      case Expr.FloatConst c -> c;
      case Expr.LongConst c -> c;
      case Expr.DoubleConst c -> c;
      case Expr.BoolConst c -> c;
      case Expr.ScalarGet get -> get;
      case Expr.BuiltinGet get -> get;
      case Expr.InLaunch gate -> gate;
      case Expr.ArmWorkgroups workgroups -> workgroups;
      case Expr.LaunchCount count -> count;
    };
  }

  private Label labelOrNull(Label label) {
    return label == null ? null : label(label);
  }
}
