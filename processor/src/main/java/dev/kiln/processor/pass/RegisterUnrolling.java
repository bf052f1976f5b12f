package dev.kiln.processor.pass;

import dev.kiln.processor.analysis.Assignments;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Rewriter;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 * Inner loops are unrolled first, in every block, those of a helper inlined into an expression too.
 * The CPU twins run the program before this pass.
 */
public final class RegisterUnrolling {
  /** The most turns of a loop unrolled. */
  static final int MOST_TURNS = 64;

  /** The most statements, nested ones included, that a loop's unrolled turns may hold. */
  static final int MOST_STATEMENTS = 2048;

  private RegisterUnrolling() {}

  /** {@code program} with its qualifying loops unrolled. */
  public static Program apply(Program program) {
    return program.withBody(program.locals(), new Unroller().block(program.body()));
  }

  /**
   * Rebuilds a body with its qualifying loops unrolled, in every block: nested statements' and
   * those of the expressions' {@link Expr.Effect}s (an inlined helper's body in an expression).
   */
  private static final class Unroller extends Rewriter {
    @Override
    protected List<Stmt> block(List<Stmt> body) {
      List<Stmt> out = new ArrayList<>(body.size());
      for (Stmt statement : body) {
        Stmt rebuilt = statement(statement).getFirst();
        Optional<List<Stmt>> unrolled =
            rebuilt instanceof Stmt.Loop loop
                    && !out.isEmpty()
                    && out.getLast() instanceof Stmt.Assign start
                ? unrolled(start, loop)
                : Optional.empty();
        if (unrolled.isPresent()) {
          out.addAll(unrolled.get());
        } else if (rebuilt instanceof Stmt.Loop loop
            && out.size() > 0
            && out.getLast() instanceof Stmt.Assign start
            && marked(start, loop)) {
          out.add(loop.unrolled());
        } else {
          out.add(rebuilt);
        }
      }
      return out;
    }
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
        || Assignments.assigned(loop.body()).contains(counter)
        || leaves(loop.body())
        || loop.body().stream().anyMatch(Stmt.Return.class::isInstance)
        || !indexesPrivateArray(loop.body(), counter)) {
      return Optional.empty();
    }
    long last = test.op() == BinaryOp.LT ? (long) bound - 1 : bound;
    long turns = last < first ? 0 : (last - first) / step.get() + 1;
    long end =
        first + turns * step.get(); // past Integer.MAX_VALUE the counter wraps, and Java goes on
    if (turns == 0
        || turns > MOST_TURNS
        || end > Integer.MAX_VALUE
        || turns * size(loop.body()) > MOST_STATEMENTS) {
      return Optional.empty();
    }
    List<Stmt> out = new ArrayList<>(); // after start, which stays
    for (long turn = 0; turn < turns; turn++) {
      out.addAll(new Turn(counter, (int) (first + turn * step.get())).statements(loop.body()));
    }
    out.add(new Stmt.Assign(counter, new Expr.IntConst((int) end)));
    return Optional.of(out);
  }

  /**
   * Whether {@code loop}, whose counter {@code start} sets, is to be marked for the driver to
   * unroll rather than written out: a counted loop as {@link #unrolled} takes, whose body, its
   * inner loops written out, touches private arrays at constant indices alone (a register tile's
   * loop over a stage's depth around its products). Written out, those loops took the float32
   * GEMM's modules past the 1 MB limit; NVIDIA's driver unrolled them by itself before this pass.
   */
  private static boolean marked(Stmt.Assign start, Stmt.Loop loop) {
    Local counter = start.local();
    if (!(start.value() instanceof Expr.IntConst(int first))
        || !loop.testFirst()
        || !(loop.condition() instanceof Expr.Binary test)
        || !(test.op() == BinaryOp.LT || test.op() == BinaryOp.LE)
        || !(test.left() instanceof Expr.LocalGet(Local tested))
        || !tested.equals(counter)
        || !(test.right() instanceof Expr.IntConst(int bound))) {
      return false;
    }
    Optional<Integer> step = step(loop.update(), counter);
    if (step.isEmpty()
        || Assignments.assigned(loop.body()).contains(counter)
        || !constantIndicesOnly(loop.body())) {
      return false;
    }
    long last = test.op() == BinaryOp.LT ? (long) bound - 1 : bound;
    long turns = last < first ? 0 : (last - first) / step.get() + 1;
    return turns > 0 && turns <= MOST_TURNS && first + turns * step.get() <= Integer.MAX_VALUE;
  }

  /** Whether {@code body} touches a private array, and at constant indices alone. */
  private static boolean constantIndicesOnly(List<Stmt> body) {
    List<Expr> indices = new ArrayList<>();
    Walk.statements(
        body,
        statement -> {
          switch (statement) {
            case Stmt.Store store when store.array() instanceof PrivateArray ->
                indices.add(store.index());
            case Stmt.Copy copy -> {
              if (copy.source() instanceof PrivateArray) {
                indices.add(copy.sourceIndex());
              }
              if (copy.target() instanceof PrivateArray) {
                indices.add(copy.targetIndex());
              }
            }
            default -> {}
          }
        });
    Walk.anyExpression(
        body,
        expression -> {
          if (expression instanceof Expr.Load load && load.array() instanceof PrivateArray) {
            indices.add(load.index());
          }
          return false;
        });
    return !indices.isEmpty() && indices.stream().allMatch(RegisterUnrolling::constant);
  }

  private static boolean constant(Expr index) {
    return switch (index) {
      case Expr.IntConst c -> true;
      case Expr.Binary binary -> constant(binary.left()) && constant(binary.right());
      default -> false;
    };
  }

  /**
   * One turn of an unrolled body: the counter's value in place of its reads, and a label of its own
   * for each labelled loop of the body (labels are compared by identity).
   */
  private static final class Turn extends Rewriter {
    private final Local counter;
    private final int value;
    private final Map<Label, Label> labels = new HashMap<>();

    Turn(Local counter, int value) {
      this.counter = counter;
      this.value = value;
    }

    @Override
    protected Label label(Label label) {
      return labels.computeIfAbsent(label, old -> new Label(old.name()));
    }

    @Override
    public Expr expression(Expr expression) {
      return expression instanceof Expr.LocalGet(Local read) && read.equals(counter)
          ? new Expr.IntConst(value)
          : super.expression(expression);
    }
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

  /**
   * Whether a statement of {@code body} leaves or continues the loop whose body it is: an
   * unlabelled {@code continue} outside nested loops, an unlabelled {@code break} outside nested
   * loops and switches, or a jump to a label that no loop of the body carries. (An expression's
   * {@link Expr.Effect} is a body of its own: its jumps stay inside it.)
   */
  private static boolean leaves(List<Stmt> body) {
    Set<Label> inside = new HashSet<>();
    Walk.statements(
        body,
        statement -> {
          if (statement instanceof Stmt.Loop loop && loop.label() != null) {
            inside.add(loop.label());
          }
        });
    return Walk.anyStatement(
            body,
            statement ->
                switch (statement) {
                  case Stmt.Break jump -> jump.label() != null && !inside.contains(jump.label());
                  case Stmt.Continue jump -> jump.label() != null && !inside.contains(jump.label());
                  default -> false;
                })
        || unlabelledJumpOut(body, false);
  }

  /** Whether {@code body} holds an unlabelled jump out of its loop; {@code inSwitch}: a case's. */
  private static boolean unlabelledJumpOut(List<Stmt> body, boolean inSwitch) {
    for (Stmt statement : body) {
      boolean out =
          switch (statement) {
            case Stmt.Break jump -> jump.label() == null && !inSwitch;
            case Stmt.Continue jump -> jump.label() == null;
            case Stmt.If branch ->
                unlabelledJumpOut(branch.then(), inSwitch)
                    || unlabelledJumpOut(branch.otherwise(), inSwitch);
            case Stmt.Switch choice ->
                choice.cases().stream().anyMatch(c -> unlabelledJumpOut(c.body(), true));
            default -> false; // a nested loop's unlabelled jumps are its own
          };
      if (out) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether an index of a private array in {@code body} reads {@code counter} itself. (A counter
   * that reaches an index through a local, as an inlined helper's parameter {@code at = move * 8}
   * indexing {@code next[at + t]}, does not count: unrolling those too took the tensor-core GEMM's
   * modules from 435 to 940 KB, for a gain not measured.)
   */
  private static boolean indexesPrivateArray(List<Stmt> body, Local counter) {
    return Walk.anyStatement(
            body,
            statement ->
                switch (statement) {
                  case Stmt.Store store ->
                      store.array() instanceof PrivateArray && reads(store.index(), counter);
                  case Stmt.Copy copy ->
                      (copy.source() instanceof PrivateArray && reads(copy.sourceIndex(), counter))
                          || (copy.target() instanceof PrivateArray
                              && reads(copy.targetIndex(), counter));
                  default -> false;
                })
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
