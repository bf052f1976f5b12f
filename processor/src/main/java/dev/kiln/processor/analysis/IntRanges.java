package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Workgroup;
import java.util.Arrays;
import java.util.function.Function;

/** The interval an int expression without an affine form lies in, as Java computes it on ints. */
final class IntRanges {
  private IntRanges() {}

  /**
   * The values an int expression that has no affine form takes wherever {@code facts} hold, as an
   * interval: affine parts from the ranges of their terms, then sums, differences, products,
   * quotients and remainders by positive constants, shifts by constants and masks (constants or
   * locals that hold one), each as Java computes it on ints ({@code index / 32 * 40 + index % 32}
   * with {@code index} in [0, 4095] lies in [0, 5111]); null where something has no bound or a
   * value may leave the int range and wrap.
   */
  static long[] of(
      Expr expression, Function<Expr, IndexForm> form, Constraints facts, Workgroup workgroup) {
    if (expression.type() != PrimType.INT) {
      return null;
    }
    if (form.apply(expression) instanceof Affine affine) {
      return facts.intRange(Linear.of(affine));
    }
    if (expression instanceof Expr.Call call && call.function() == Intrinsic.SUBGROUP_ID) {
      return new long[] {
        0, workgroup.invocations() - 1
      }; // below the workgroup's count of subgroups
    }
    if (expression instanceof Expr.Checked checked) {
      return new long[] {0, checked.length() - 1}; // out of bounds it faults and is 0
    }
    if (!(expression instanceof Expr.Binary binary)) {
      return null;
    }
    long[] left = of(binary.left(), form, facts, workgroup);
    // a constant, or a local that holds one here (a helper's constant argument, once inlined)
    Integer constant =
        form.apply(binary.right()) instanceof Affine(var coefficients, int value)
                && coefficients.isEmpty()
            ? value
            : null;
    if (binary.op() == BinaryOp.AND && constant != null && constant >= 0) {
      return new long[] {0, constant}; // whatever the left side: its bits under a non-negative mask
    }
    if (left == null) {
      return null;
    }
    long[] result;
    switch (binary.op()) {
      case ADD, SUB, MUL -> {
        long[] right = of(binary.right(), form, facts, workgroup);
        if (right == null) {
          return null;
        }
        result =
            switch (binary.op()) {
              case ADD -> new long[] {left[0] + right[0], left[1] + right[1]};
              case SUB -> new long[] {left[0] - right[1], left[1] - right[0]};
              default -> {
                long[] corners = {
                  left[0] * right[0], left[0] * right[1], left[1] * right[0], left[1] * right[1]
                };
                yield new long[] {
                  Arrays.stream(corners).min().orElseThrow(),
                  Arrays.stream(corners).max().orElseThrow()
                };
              }
            };
      }
      // a quotient truncated toward zero grows with the dividend
      case DIV ->
          result =
              constant != null && constant > 0
                  ? new long[] {left[0] / constant, left[1] / constant}
                  : null;
      case REM ->
          result =
              constant == null || constant <= 0
                  ? null
                  : new long[] {
                    left[0] >= 0 ? 0 : Math.max(left[0], 1 - constant),
                    left[1] <= 0 ? 0 : Math.min(left[1], constant - 1)
                  };
      case SHR ->
          result =
              constant != null && constant >= 0 && constant < 32
                  ? new long[] {left[0] >> constant, left[1] >> constant}
                  : null;
      default -> result = null;
    }
    return result == null || result[0] < Integer.MIN_VALUE || result[1] > Integer.MAX_VALUE
        ? null
        : result;
  }
}
