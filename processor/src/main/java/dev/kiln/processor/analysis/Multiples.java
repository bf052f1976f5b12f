package dev.kiln.processor.analysis;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The powers of two that int values are known multiples of: for each expression, how many of its
 * low bits are known zero. Every local takes the fewest of all the values assigned to it anywhere
 * (locals are unique per program, and Java reads none before assigning it), found by iterating to a
 * fixed point; so {@code k} of {@code for (int k = 0; k < n; k += 16)} is a multiple of 16. Int
 * arithmetic wraps modulo 2^32, which keeps multiples of powers of two: {@code a + b} has the fewer
 * of its operands' zero bits, {@code a * b} their sum, {@code a << c} c more, {@code a % b} the
 * fewer (a remainder is {@code a - (a / b) * b}), {@code a & b} the more, {@code -a} as many
 * ({@code -QUAD} of a constant), and {@code Math.min} and {@code Math.max} the fewer of their
 * arguments (the result is one of them). What tells a tile's offset or a copy's index 16-byte
 * aligned at compile time.
 */
public final class Multiples {
  /** All 32 bits: the value 0, or a local nothing has lowered yet. */
  private static final int ALL = 32;

  private final Map<Local, Integer> locals = new HashMap<>();

  /** An assignment of {@code value} to {@code local}; a null value is one nothing is known of. */
  private record Assignment(Local local, Expr value) {}

  private Multiples() {}

  /**
   * The analysis of {@code program}'s locals.
   *
   * @param program the program
   * @return its multiples
   */
  public static Multiples of(Program program) {
    Multiples multiples = new Multiples();
    List<Assignment> assignments = new ArrayList<>();
    Walk.statements(
        program.body(),
        statement -> {
          switch (statement) {
            case Stmt.Assign assign ->
                assignments.add(new Assignment(assign.local(), assign.value()));
            case Stmt.Atomic atomic when atomic.result() != null ->
                assignments.add(new Assignment(atomic.result(), null));
            case Stmt.VectorLoad load ->
                load.lanes().forEach(lane -> assignments.add(new Assignment(lane, null)));
            default -> {}
          }
        });
    Walk.expressions(
        program.body(),
        expression -> {
          if (expression instanceof Expr.Let let) {
            assignments.add(new Assignment(let.local(), let.value()));
          }
        });
    assignments.forEach(assignment -> multiples.locals.put(assignment.local(), ALL));
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Assignment assignment : assignments) {
        int known = multiples.locals.get(assignment.local());
        int bits = assignment.value() == null ? 0 : multiples.zeroBits(assignment.value());
        if (bits < known) {
          multiples.locals.put(assignment.local(), bits);
          changed = true;
        }
      }
    }
    return multiples;
  }

  /**
   * Whether {@code expression}, an int, is a multiple of {@code power} (a power of two) whatever
   * the launch.
   *
   * @param expression an int expression of the program
   * @param power a power of two
   * @return whether it is known a multiple
   */
  public boolean isMultiple(Expr expression, int power) {
    return zeroBits(expression) >= Integer.numberOfTrailingZeros(power);
  }

  /**
   * The largest power of two (at most 2^30) every value of {@code local}, an int, is a multiple of.
   *
   * @param local a local of the program
   * @return the power, 1 where nothing is known
   */
  public long power(Local local) {
    return 1L << Math.min(30, locals.getOrDefault(local, 0));
  }

  /** How many low bits of an int expression are known zero. */
  int zeroBits(Expr expression) {
    if (expression.type() != PrimType.INT) {
      return 0;
    }
    return switch (expression) {
      case Expr.IntConst(int value) -> value == 0 ? ALL : Integer.numberOfTrailingZeros(value);
      case Expr.LocalGet get -> locals.getOrDefault(get.local(), 0);
      case Expr.Binary binary -> binary(binary);
      case Expr.Unary(UnaryOp op, Expr operand) when op == UnaryOp.NEG -> zeroBits(operand);
      case Expr.Call call
          when call.function() == Intrinsic.MIN || call.function() == Intrinsic.MAX ->
          call.arguments().stream().mapToInt(this::zeroBits).min().orElse(0);
      case Expr.Conditional conditional ->
          Math.min(zeroBits(conditional.then()), zeroBits(conditional.otherwise()));
      case Expr.Let let -> zeroBits(let.body());
      case Expr.Effect effect -> zeroBits(effect.value());
      default -> 0;
    };
  }

  private int binary(Expr.Binary binary) {
    int left = zeroBits(binary.left());
    int right = zeroBits(binary.right());
    return switch (binary.op()) {
      case ADD, SUB, OR, XOR, REM -> Math.min(left, right);
      case MUL -> Math.min(ALL, left + right);
      case AND -> Math.max(left, right);
      case SHL ->
          binary.right() instanceof Expr.IntConst(int distance)
              ? Math.min(ALL, left + (distance & 31))
              : 0;
      default -> 0;
    };
  }
}
