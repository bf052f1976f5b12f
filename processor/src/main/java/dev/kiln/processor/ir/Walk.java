package dev.kiln.processor.ir;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Visits every statement, nested ones included, or every expression of a body, in program order.
 */
public final class Walk {
  private Walk() {}

  /**
   * Each statement of {@code body} and of the blocks nested in it, before its nested ones, and the
   * statements of the {@link Expr.Effect}s in its expressions, after it.
   */
  public static void statements(List<Stmt> body, Consumer<Stmt> visitor) {
    for (Stmt statement : body) {
      visitor.accept(statement);
      for (Expr own : ownExpressions(statement)) {
        expression(
            own,
            e -> {
              if (e instanceof Expr.Effect effect) {
                statements(effect.statements(), visitor);
              }
            });
      }
      switch (statement) {
        case Stmt.If branch -> {
          statements(branch.then(), visitor);
          statements(branch.otherwise(), visitor);
        }
        case Stmt.Loop loop -> {
          statements(loop.body(), visitor);
          statements(loop.update(), visitor);
        }
        case Stmt.Switch choice -> choice.cases().forEach(c -> statements(c.body(), visitor));
        case Stmt.Assign a -> {}
        case Stmt.Store s -> {}
        case Stmt.Atomic a -> {}
        case Stmt.Barrier b -> {}
        case Stmt.ClearArray c -> {}
        case Stmt.DeclareShared d -> {}
        case Stmt.VectorLoad v -> {}
        case Stmt.VectorStore v -> {}
        case Stmt.Matrix m -> {}
        case Stmt.Copy c -> {}
        case Stmt.Break b -> {}
        case Stmt.Continue c -> {}
        case Stmt.Return r -> {}
        case Stmt.Call c -> {}
      }
    }
  }

  /**
   * The names of the arrays that statements of {@code body} write: stores, atomics, copies'
   * targets, vector and tile stores, and every array a call not inlined takes.
   */
  public static java.util.Set<String> writtenArrays(List<Stmt> body) {
    java.util.Set<String> written = new java.util.HashSet<>();
    statements(
        body,
        statement -> {
          switch (statement) {
            case Stmt.Store store -> written.add(store.array().name());
            case Stmt.Atomic atomic -> written.add(atomic.array().name());
            case Stmt.Copy copy -> written.add(copy.target().name());
            case Stmt.Matrix tile -> {
              if (tile.op() instanceof MatrixOp.Store store) {
                written.add(store.array().name());
              }
            }
            case Stmt.VectorStore vector -> written.add(vector.buffer().name());
            case Stmt.Call call -> call.arrays().forEach(array -> written.add(array.name()));
            default -> {}
          }
        });
    return written;
  }

  /** Whether any statement of {@code body}, nested ones included, satisfies {@code test}. */
  public static boolean anyStatement(List<Stmt> body, Predicate<Stmt> test) {
    boolean[] found = {false};
    statements(body, statement -> found[0] |= test.test(statement));
    return found[0];
  }

  /** Every expression of {@code body}, sub-expressions included. */
  public static void expressions(List<Stmt> body, Consumer<Expr> visitor) {
    statements(body, statement -> ownExpressions(statement).forEach(e -> expression(e, visitor)));
  }

  /** Whether any expression of {@code body} satisfies {@code test}. */
  public static boolean anyExpression(List<Stmt> body, Predicate<Expr> test) {
    boolean[] found = {false};
    expressions(body, expression -> found[0] |= test.test(expression));
    return found[0];
  }

  /** Whether {@code root} or one of its sub-expressions satisfies {@code test}. */
  public static boolean anyIn(Expr root, Predicate<Expr> test) {
    boolean[] found = {false};
    expression(root, expression -> found[0] |= test.test(expression));
    return found[0];
  }

  /** {@code root} and each of its sub-expressions, parents first. */
  public static void expression(Expr root, Consumer<Expr> visitor) {
    visitor.accept(root);
    for (Expr child : children(root)) {
      expression(child, visitor);
    }
  }

  /** The expressions a statement evaluates itself, not those of its nested statements. */
  public static List<Expr> ownExpressions(Stmt statement) {
    return switch (statement) {
      case Stmt.Assign assign -> List.of(assign.value());
      case Stmt.Store store -> List.of(store.index(), store.value());
      case Stmt.Atomic atomic ->
          atomic.expected() == null
              ? List.of(atomic.index(), atomic.value())
              : List.of(atomic.index(), atomic.value(), atomic.expected());
      case Stmt.If branch -> List.of(branch.condition());
      case Stmt.Loop loop -> List.of(loop.condition());
      case Stmt.Switch choice -> List.of(choice.selector());
      case Stmt.Barrier b -> List.of();
      case Stmt.ClearArray c -> List.of();
      case Stmt.DeclareShared d -> List.of();
      case Stmt.VectorLoad load -> List.of(load.vector());
      case Stmt.VectorStore store -> concat(store.vector(), store.lanes());
      case Stmt.Matrix matrix -> matrix.op().scalars();
      case Stmt.Copy copy -> List.of(copy.sourceIndex(), copy.targetIndex());
      case Stmt.Break b -> List.of();
      case Stmt.Continue c -> List.of();
      case Stmt.Return r -> List.of();
      case Stmt.Call call -> call.arguments();
    };
  }

  /** The direct sub-expressions of {@code expression}. */
  public static List<Expr> children(Expr expression) {
    return switch (expression) {
      case Expr.Load load -> List.of(load.index());
      case Expr.Checked checked -> List.of(checked.index());
      case Expr.Unary unary -> List.of(unary.operand());
      case Expr.Binary binary -> List.of(binary.left(), binary.right());
      case Expr.Call call -> call.arguments();
      case Expr.Convert convert -> List.of(convert.value());
      case Expr.Conditional conditional ->
          List.of(conditional.condition(), conditional.then(), conditional.otherwise());
      case Expr.Let let -> List.of(let.value(), let.body());
      case Expr.Effect effect ->
          List.of(effect.value()); // its statements are statements: see statements()
      case Expr.IntConst c -> List.of();
      case Expr.FloatConst c -> List.of();
      case Expr.LongConst c -> List.of();
      case Expr.DoubleConst c -> List.of();
      case Expr.BoolConst c -> List.of();
      case Expr.LocalGet g -> List.of();
      case Expr.ScalarGet g -> List.of();
      case Expr.Length l -> List.of();
      case Expr.BuiltinGet g -> List.of();
      case Expr.InLaunch g -> List.of();
      case Expr.ArmWorkgroups w -> List.of();
      case Expr.LaunchCount c -> List.of();
    };
  }

  private static List<Expr> concat(Expr first, List<Expr> rest) {
    List<Expr> all = new java.util.ArrayList<>(List.of(first));
    all.addAll(rest);
    return all;
  }
}
