package dev.kiln.processor.pass;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Rewriter;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Unrolls the counted loops that index a private array by their counter, so that every such index
 * is a constant and the array can live in registers. A private array is a {@code Function}
 * variable; a driver keeps it in registers only where it can resolve every index, which needs every
 * loop around an index unrolled, and it decides that by heuristics of its own: NVIDIA's left the
 * outer loop of the float32 GEMM's store of its 8 x 8 tile rolled, and so kept the tile's 64 sums
 * in memory for the whole product (59 registers, 1.9 against 33.7 TFLOP/s with that loop written
 * out; PERFORMANCE.md, the forty-second session).
 *
 * <p>A loop qualifies when the statement before it sets its counter to a constant, its condition is
 * {@code counter < bound} or {@code counter <= bound} with a constant bound, its update alone adds
 * a positive constant to the counter, its body neither assigns the counter nor leaves or continues
 * the loop (nor returns at its top level, which would leave statements after it), some private
 * array's index in it reads the counter, and it runs at most {@link #MOST_TURNS} turns whose copies
 * hold at most {@link #MOST_STATEMENTS} statements. Its turns then follow one another with the
 * counter's value in place of each read, and the counter ends with the value the loop leaves it.
 * Inner loops are unrolled first. The CPU twins run the program before this pass.
 */
public final class RegisterUnrolling {
  /** The most turns of a loop unrolled. */
  static final int MOST_TURNS = 64;

  /** The most statements, nested ones included, that a loop's unrolled turns may hold. */
  static final int MOST_STATEMENTS = 2048;

  private RegisterUnrolling() {}

  /** {@code program} with its qualifying loops unrolled. */
  public static Program apply(Program program) {
    return program.withBody(program.locals(), statements(program.body()));
  }

  private static List<Stmt> statements(List<Stmt> body) {
    List<Stmt> out = new ArrayList<>(body.size());
    for (Stmt statement : body) {
      Stmt inner = nested(statement);
      Optional<List<Stmt>> unrolled =
          inner instanceof Stmt.Loop loop
                  && !out.isEmpty()
                  && out.getLast() instanceof Stmt.Assign start
              ? unrolled(start, loop)
              : Optional.empty();
      if (unrolled.isPresent()) {
        out.addAll(unrolled.get());
      } else {
        out.add(inner);
      }
    }
    return out;
  }

  /** {@code statement} with the loops of its nested blocks unrolled. */
  private static Stmt nested(Stmt statement) {
    return switch (statement) {
      case Stmt.If branch ->
          new Stmt.If(
              branch.condition(), statements(branch.then()), statements(branch.otherwise()));
      case Stmt.Loop loop -> loop.withBody(statements(loop.body()));
      case Stmt.Switch choice ->
          new Stmt.Switch(
              choice.selector(),
              choice.cases().stream()
                  .map(c -> new Stmt.Case(c.labels(), c.isDefault(), statements(c.body())))
                  .toList());
      default -> statement;
    };
  }

  /**
   * The turns of {@code loop}, whose counter {@code start} (already written out) sets, one after
   * another, then the counter's last value; empty where the loop does not qualify.
   */
  private static Optional<List<Stmt>> unrolled(Stmt.Assign start, Stmt.Loop loop) {
    Local counter = start.local();
    if (!(start.value() instanceof Expr.IntConst(int first))
        || !loop.testFirst()
        || loop.label() != null
        || !(loop.condition() instanceof Expr.Binary test)
        || !(test.op() == BinaryOp.LT || test.op() == BinaryOp.LE)
        || !(test.left() instanceof Expr.LocalGet(Local tested))
        || !tested.equals(counter)
        || !(test.right() instanceof Expr.IntConst(int bound))) {
      return Optional.empty();
    }
    Optional<Integer> step = step(loop.update(), counter);
    if (step.isEmpty()
        || assigns(loop.body(), counter)
        || leaves(loop.body(), false)
        || loop.body().stream().anyMatch(Stmt.Return.class::isInstance)
        || !indexesPrivateArray(loop.body(), counter)) {
      return Optional.empty();
    }
    long last = test.op() == BinaryOp.LT ? (long) bound - 1 : bound;
    long turns = last < first ? 0 : (last - first) / step.get() + 1;
    if (turns == 0 || turns > MOST_TURNS || turns * size(loop.body()) > MOST_STATEMENTS) {
      return Optional.empty();
    }
    List<Stmt> out = new ArrayList<>(); // after start, which stays
    for (long turn = 0; turn < turns; turn++) {
      int value = (int) (first + turn * step.get());
      out.addAll(
          new Rewriter() {
            @Override
            public Expr expression(Expr expression) {
              return expression instanceof Expr.LocalGet(Local read) && read.equals(counter)
                  ? new Expr.IntConst(value)
                  : super.expression(expression);
            }
          }.statements(loop.body()));
    }
    out.add(new Stmt.Assign(counter, new Expr.IntConst((int) (first + turns * step.get()))));
    return Optional.of(out);
  }

  /** The positive constant {@code update} adds to {@code counter}, where that is all it does. */
  private static Optional<Integer> step(List<Stmt> update, Local counter) {
    if (update.size() == 1
        && update.getFirst() instanceof Stmt.Assign(Local assigned, Expr value)
        && assigned.equals(counter)
        && value instanceof Expr.Binary add
        && add.op() == BinaryOp.ADD
        && add.left() instanceof Expr.LocalGet(Local read)
        && read.equals(counter)
        && add.right() instanceof Expr.IntConst(int step)
        && step > 0) {
      return Optional.of(step);
    }
    return Optional.empty();
  }

  private static boolean assigns(List<Stmt> body, Local counter) {
    return Walk.anyStatement(
        body,
        statement ->
            switch (statement) {
              case Stmt.Assign assign -> assign.local().equals(counter);
              case Stmt.Atomic atomic -> counter.equals(atomic.result());
              case Stmt.VectorLoad load -> load.lanes().contains(counter);
              case Stmt.Call call -> true; // linked away before the passes; never unroll around one
              default -> false;
            });
  }

  /**
   * Whether a statement of {@code body} leaves or continues the loop whose body it is: an
   * unlabelled {@code continue} outside nested loops, an unlabelled {@code break} outside nested
   * loops and switches, or any labelled jump. {@code inSwitch}: whether {@code body} is a case's.
   */
  private static boolean leaves(List<Stmt> body, boolean inSwitch) {
    for (Stmt statement : body) {
      boolean leaves =
          switch (statement) {
            case Stmt.Break jump -> jump.label() != null || !inSwitch;
            case Stmt.Continue jump -> true;
            case Stmt.If branch ->
                leaves(branch.then(), inSwitch) || leaves(branch.otherwise(), inSwitch);
            case Stmt.Switch choice ->
                choice.cases().stream().anyMatch(c -> leaves(c.body(), true));
            case Stmt.Loop loop -> labelledJump(loop.body()) || labelledJump(loop.update());
            default -> false;
          };
      if (leaves) {
        return true;
      }
    }
    return false;
  }

  private static boolean labelledJump(List<Stmt> body) {
    return Walk.anyStatement(
        body,
        statement ->
            switch (statement) {
              case Stmt.Break jump -> jump.label() != null;
              case Stmt.Continue jump -> jump.label() != null;
              default -> false;
            });
  }

  /** Whether an index of a private array in {@code body} reads {@code counter}. */
  private static boolean indexesPrivateArray(List<Stmt> body, Local counter) {
    boolean[] found = {false};
    Walk.statements(
        body,
        statement -> {
          switch (statement) {
            case Stmt.Store store when store.array() instanceof PrivateArray ->
                found[0] |= reads(store.index(), counter);
            case Stmt.Copy copy -> {
              found[0] |=
                  copy.source() instanceof PrivateArray && reads(copy.sourceIndex(), counter);
              found[0] |=
                  copy.target() instanceof PrivateArray && reads(copy.targetIndex(), counter);
            }
            default -> {}
          }
        });
    return found[0]
        || Walk.anyExpression(
            body,
            expression ->
                expression instanceof Expr.Load load
                    && load.array() instanceof PrivateArray
                    && reads(load.index(), counter));
  }

  private static boolean reads(Expr expression, Local counter) {
    return Walk.anyIn(
        expression, e -> e instanceof Expr.LocalGet(Local read) && read.equals(counter));
  }

  /** The statements of {@code body}, nested ones included. */
  private static long size(List<Stmt> body) {
    long[] count = {0};
    Walk.statements(body, statement -> count[0]++);
    return count[0];
  }
}
