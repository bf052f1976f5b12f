package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.PrimType;

/**
 * Library calls that may fault. {@code Math.addExact}, {@code subtractExact}, {@code
 * multiplyExact}, {@code negateExact} and {@code toIntExact}: the wrapped result, with an overflow
 * reported as Java's ArithmeticException through the fault buffer; overflow is read off the
 * operands' and result's signs, off the high half of the full product (OpSMulExtended), or off a
 * round trip through int. {@code Math.clamp}: Java's min and max, with bounds out of order or NaN
 * reported as its IllegalArgumentException.
 */
final class CheckedCalls {
  private CheckedCalls() {}

  static int emit(
      FunctionBuilder w, MemoryAccess memory, Intrinsic function, PrimType type, int[] args) {
    if (function == Intrinsic.CLAMP) {
      return clamp(w, memory, type, args[0], args[1], args[2]);
    }
    SpirvModule m = w.module();
    int t = w.typeOf(type);
    int bool = m.typeBool();
    int zero = w.zero(type);
    int result;
    int overflows;
    switch (function) {
      case ADD_EXACT -> { // both operands' signs differ from the result's
        result = w.op(SpvOpIAdd, t, args[0], args[1]);
        overflows =
            negative(
                w,
                w.op(
                    SpvOpBitwiseAnd,
                    t,
                    w.op(SpvOpBitwiseXor, t, args[0], result),
                    w.op(SpvOpBitwiseXor, t, args[1], result)),
                zero);
      }
      case SUBTRACT_EXACT -> { // the operands' signs differ, and the result's differs from the
        // first's
        result = w.op(SpvOpISub, t, args[0], args[1]);
        overflows =
            negative(
                w,
                w.op(
                    SpvOpBitwiseAnd,
                    t,
                    w.op(SpvOpBitwiseXor, t, args[0], args[1]),
                    w.op(SpvOpBitwiseXor, t, args[0], result)),
                zero);
      }
      case MULTIPLY_EXACT -> { // the high half is not the low half's sign extension
        int pair = m.type(SpvOpTypeStruct, t, t);
        int product = w.op(SpvOpSMulExtended, pair, args[0], args[1]);
        result = w.op(SpvOpCompositeExtract, t, product, 0);
        int high = w.op(SpvOpCompositeExtract, t, product, 1);
        int sign =
            w.op(
                SpvOpShiftRightArithmetic,
                t,
                result,
                w.constant(type, type == PrimType.LONG ? 63 : 31));
        overflows = w.op(SpvOpINotEqual, bool, high, sign);
      }
      case NEGATE_EXACT -> {
        result = w.op(SpvOpSNegate, t, args[0]);
        overflows =
            w.op(
                SpvOpIEqual,
                bool,
                args[0],
                w.constant(type, type == PrimType.LONG ? Long.MIN_VALUE : Integer.MIN_VALUE));
      }
      case TO_INT_EXACT -> {
        result = w.op(SpvOpSConvert, m.typeInt(), args[0]);
        overflows = w.op(SpvOpINotEqual, bool, w.op(SpvOpSConvert, t, result), args[0]);
      }
      default -> throw new IllegalArgumentException(function + " is not an *Exact method");
    }
    memory.faults().overflow(overflows, type);
    return result;
  }

  /**
   * {@code Math.clamp(value, min, max)}: {@code min(max, max(value, min))} with Java's min and max;
   * IllegalArgumentException where min is above max, where a bound is NaN, or where min is 0.0 and
   * max is -0.0 (Java's clamp orders the zeros).
   */
  private static int clamp(
      FunctionBuilder w, MemoryAccess memory, PrimType type, int value, int min, int max) {
    SpirvModule m = w.module();
    int t = w.typeOf(type);
    int bool = m.typeBool();
    if (!type.isFloating()) {
      memory.faults().illegalArgument(w.op(SpvOpSGreaterThan, bool, min, max));
      return w.glsl(Glsl.SMIN, t, w.glsl(Glsl.SMAX, t, value, min), max);
    }
    int bits = type == PrimType.DOUBLE ? m.typeLong() : m.typeInt();
    PrimType bitsType = type == PrimType.DOUBLE ? PrimType.LONG : PrimType.INT;
    int minNegative = w.op(SpvOpSLessThan, bool, w.op(SpvOpBitcast, bits, min), w.zero(bitsType));
    int maxNegative = w.op(SpvOpSLessThan, bool, w.op(SpvOpBitcast, bits, max), w.zero(bitsType));
    int zerosReversed =
        w.op(
            SpvOpLogicalAnd,
            bool,
            w.op(SpvOpFOrdEqual, bool, min, max),
            w.op(SpvOpLogicalAnd, bool, w.op(SpvOpLogicalNot, bool, minNegative), maxNegative));
    int unordered =
        w.op(SpvOpLogicalOr, bool, w.op(SpvOpIsNan, bool, min), w.op(SpvOpIsNan, bool, max));
    memory
        .faults()
        .illegalArgument(
            w.op(
                SpvOpLogicalOr,
                bool,
                unordered,
                w.op(
                    SpvOpLogicalOr,
                    bool,
                    w.op(SpvOpFOrdGreaterThan, bool, min, max),
                    zerosReversed)));
    return Calls.minMax(w, type, Calls.minMax(w, type, value, min, false), max, true);
  }

  private static int negative(FunctionBuilder w, int value, int zero) {
    return w.op(SpvOpSLessThan, w.module().typeBool(), value, zero);
  }
}
