package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.analysis.IndexForm.Id;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;
import java.util.Map;
import java.util.function.Function;

/**
 * An int index that is a function of the local ids and constants alone, as Java computes it: masks,
 * remainders, xor and shifts of affine forms in the local ids ({@code (l + 1) & 63}, {@code l ^ 1},
 * {@code (l + 1) % 64}). Where the affine forms cannot compare two accesses, {@link
 * WorkgroupMeeting} evaluates these for every invocation of the workgroup.
 */
sealed interface LocalIdFunction {

  /**
   * The value for the invocation of local id {@code (x, y, z)}; null where Java throws (a division
   * by zero).
   */
  Integer at(int x, int y, int z);

  /** An affine form of local ids: {@code constant + Σ k·localId(axis)}, wrapping as int does. */
  record Ids(Affine form) implements LocalIdFunction {
    @Override
    public Integer at(int x, int y, int z) {
      int value = form.constant();
      for (Map.Entry<IndexForm.Term, Integer> term : form.coefficients().entrySet()) {
        int axis = ((Id) term.getKey()).axis();
        value += term.getValue() * (axis == 0 ? x : axis == 1 ? y : z);
      }
      return value;
    }
  }

  /** A binary operator of two such functions. */
  record Apply(BinaryOp op, LocalIdFunction left, LocalIdFunction right)
      implements LocalIdFunction {
    @Override
    public Integer at(int x, int y, int z) {
      Integer a = left.at(x, y, z);
      Integer b = right.at(x, y, z);
      if (a == null || b == null || (op == BinaryOp.DIV || op == BinaryOp.REM) && b == 0) {
        return null;
      }
      return switch (op) {
        case ADD -> a + b;
        case SUB -> a - b;
        case MUL -> a * b;
        case DIV -> a / b;
        case REM -> a % b;
        case SHL -> a << b;
        case SHR -> a >> b;
        case USHR -> a >>> b;
        case AND -> a & b;
        case OR -> a | b;
        case XOR -> a ^ b;
        case EQ, NE, LT, LE, GT, GE -> throw new IllegalStateException("a comparison: " + op);
      };
    }
  }

  /**
   * {@code index} as such a function, or null where it reads anything but local ids and constants.
   *
   * @param index an int expression
   * @param form the affine form of a subexpression where it is evaluated
   */
  static LocalIdFunction of(Expr index, Function<Expr, IndexForm> form) {
    if (index.type() != PrimType.INT) {
      return null;
    }
    if (form.apply(index) instanceof Affine affine
        && affine.coefficients().keySet().stream()
            .allMatch(term -> term instanceof Id id && id.builtin() == Builtin.LOCAL_ID)) {
      return new Ids(affine);
    }
    if (index instanceof Expr.Binary binary && !binary.op().isComparison()) {
      LocalIdFunction left = of(binary.left(), form);
      LocalIdFunction right = left == null ? null : of(binary.right(), form);
      return right == null ? null : new Apply(binary.op(), left, right);
    }
    return null;
  }
}
