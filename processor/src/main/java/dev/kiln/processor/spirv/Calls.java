package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.Intrinsic;

/**
 * Library functions. Java's own ({@code Math.min}, {@code Float.floatToIntBits}, ...) are spelled
 * out where the GPU instruction differs from Java: NaN and signed zeros in min and max, ties in
 * round, zero in the bit scans. The transcendental ones are GLSL.std.450's.
 */
final class Calls {
  private Calls() {}

  static int emit(SpirvWriter w, Intrinsic function, int[] args) {
    SpirvModule m = w.module();
    int f32 = m.typeFloat();
    int i32 = m.typeInt();
    int bool = m.typeBool();
    int x = args.length > 0 ? args[0] : 0;
    return switch (function) {
      case ABS_INT -> w.op(SpvOpSelect, i32, w.op(SpvOpSLessThan, bool, x, m.constantInt(0)),
          w.op(SpvOpSNegate, i32, x), x); // abs(MIN_VALUE) is MIN_VALUE, as in Java
      case ABS_FLOAT -> w.op(SpvOpBitcast, f32,
          w.op(SpvOpBitwiseAnd, i32, w.op(SpvOpBitcast, i32, x), m.constantInt(Integer.MAX_VALUE)));
      case MIN_INT -> w.glsl(Glsl.SMIN, i32, x, args[1]);
      case MAX_INT -> w.glsl(Glsl.SMAX, i32, x, args[1]);
      case MIN_FLOAT -> minMax(w, x, args[1], true);
      case MAX_FLOAT -> minMax(w, x, args[1], false);
      case ROUND -> {
        // floor(x + 0.5) without rounding the sum: x - floor(x) is exact.
        int floor = w.glsl(Glsl.FLOOR, f32, x);
        int fraction = Operators.exact(w, SpvOpFSub, x, floor);
        int up = w.op(SpvOpFOrdGreaterThanEqual, bool, fraction, m.constantFloat(0.5f));
        int rounded = w.op(SpvOpSelect, f32, up, Operators.exact(w, SpvOpFAdd, floor, m.constantFloat(1f)), floor);
        yield w.floatToInt(rounded);
      }
      case SIGNUM -> {
        int keep = w.op(SpvOpLogicalOr, bool, w.op(SpvOpFOrdEqual, bool, x, m.constantFloat(0f)), w.op(SpvOpIsNan, bool, x));
        yield w.op(SpvOpSelect, f32, keep, x, w.glsl(Glsl.FSIGN, f32, x));
      }
      case FLOOR -> w.glsl(Glsl.FLOOR, f32, x);
      case CEIL -> w.glsl(Glsl.CEIL, f32, x);
      case FLOAT_TO_RAW_INT_BITS -> w.op(SpvOpBitcast, i32, x);
      case FLOAT_TO_INT_BITS -> w.op(SpvOpSelect, i32, w.op(SpvOpIsNan, bool, x),
          m.constantInt(Float.floatToIntBits(Float.NaN)), w.op(SpvOpBitcast, i32, x));
      case INT_BITS_TO_FLOAT -> w.op(SpvOpBitcast, f32, x);
      case IS_NAN -> w.op(SpvOpIsNan, bool, x);
      case IS_INFINITE -> w.op(SpvOpIsInf, bool, x);
      case BIT_COUNT -> w.op(SpvOpBitCount, i32, x);
      case LEADING_ZEROS -> w.op(SpvOpSelect, i32, w.op(SpvOpIEqual, bool, x, m.constantInt(0)), m.constantInt(32),
          w.op(SpvOpISub, i32, m.constantInt(31), w.glsl(Glsl.FIND_UMSB, i32, x)));
      case TRAILING_ZEROS -> w.op(SpvOpSelect, i32, w.op(SpvOpIEqual, bool, x, m.constantInt(0)), m.constantInt(32),
          w.glsl(Glsl.FIND_ILSB, i32, x));
      case REVERSE_BITS -> w.op(SpvOpBitReverse, i32, x);
      case SQRT -> w.glsl(Glsl.SQRT, f32, x);
      case INVERSE_SQRT -> w.glsl(Glsl.INVERSE_SQRT, f32, x);
      case EXP -> w.glsl(Glsl.EXP, f32, x);
      case EXP2 -> w.glsl(Glsl.EXP2, f32, x);
      case LOG -> w.glsl(Glsl.LOG, f32, x);
      case LOG2 -> w.glsl(Glsl.LOG2, f32, x);
      case POW -> w.glsl(Glsl.POW, f32, x, args[1]);
      case SIN -> w.glsl(Glsl.SIN, f32, x);
      case COS -> w.glsl(Glsl.COS, f32, x);
      case TAN -> w.glsl(Glsl.TAN, f32, x);
      case TANH -> w.glsl(Glsl.TANH, f32, x);
      case ATAN2 -> w.glsl(Glsl.ATAN2, f32, x, args[1]);
      case FMA -> w.glsl(Glsl.FMA, f32, x, args[1], args[2]);
      case SUBGROUP_SIZE -> w.subgroupBuiltin(SpvBuiltInSubgroupSize);
      case SUBGROUP_INVOCATION -> w.subgroupBuiltin(SpvBuiltInSubgroupLocalInvocationId);
      case SUBGROUP_ID -> w.subgroupBuiltin(SpvBuiltInSubgroupId);
      case NUM_SUBGROUPS -> w.subgroupBuiltin(SpvBuiltInNumSubgroups);
      case SUBGROUP_ADD_INT -> reduce(w, SpvOpGroupNonUniformIAdd, i32, x);
      case SUBGROUP_ADD_FLOAT -> reduce(w, SpvOpGroupNonUniformFAdd, f32, x);
      case SUBGROUP_MIN_INT -> reduce(w, SpvOpGroupNonUniformSMin, i32, x);
      case SUBGROUP_MIN_FLOAT -> reduce(w, SpvOpGroupNonUniformFMin, f32, x);
      case SUBGROUP_MAX_INT -> reduce(w, SpvOpGroupNonUniformSMax, i32, x);
      case SUBGROUP_MAX_FLOAT -> reduce(w, SpvOpGroupNonUniformFMax, f32, x);
      case SUBGROUP_BROADCAST_INT, SUBGROUP_BROADCAST_FLOAT -> {
        m.capability(SpvCapabilityGroupNonUniformBallot);
        int type = function == Intrinsic.SUBGROUP_BROADCAST_INT ? i32 : f32;
        yield w.op(SpvOpGroupNonUniformBroadcast, type, subgroupScope(m), x, args[1]); // a uint constant
      }
      case SUBGROUP_BALLOT -> {
        m.capability(SpvCapabilityGroupNonUniformBallot);
        int mask = w.op(SpvOpGroupNonUniformBallot, m.type(SpvOpTypeVector, m.typeUint(), 4), subgroupScope(m), x);
        yield w.op(SpvOpBitcast, i32, w.op(SpvOpCompositeExtract, m.typeUint(), mask, 0));
      }
    };
  }

  /** A reduction over the subgroup's active invocations. */
  private static int reduce(SpirvWriter w, int opcode, int type, int value) {
    w.module().capability(SpvCapabilityGroupNonUniformArithmetic);
    return w.op(opcode, type, subgroupScope(w.module()), SpvGroupOperationReduce, value);
  }

  private static int subgroupScope(SpirvModule m) {
    m.capability(SpvCapabilityGroupNonUniform);
    return m.constantUint(SpvScopeSubgroup);
  }

  /**
   * Java's {@code Math.min}/{@code max}: NaN if either is NaN, and {@code -0f} below {@code 0f}
   * (for equal operands the sign bits are or'ed for min and and'ed for max).
   */
  private static int minMax(SpirvWriter w, int a, int b, boolean min) {
    SpirvModule m = w.module();
    int f32 = m.typeFloat();
    int i32 = m.typeInt();
    int bool = m.typeBool();
    int better = w.op(min ? SpvOpFOrdLessThan : SpvOpFOrdGreaterThan, bool, a, b);
    int picked = w.op(SpvOpSelect, f32, better, a, b);
    int bits = w.op(min ? SpvOpBitwiseOr : SpvOpBitwiseAnd, i32, w.op(SpvOpBitcast, i32, a), w.op(SpvOpBitcast, i32, b));
    int equal = w.op(SpvOpFOrdEqual, bool, a, b);
    int result = w.op(SpvOpSelect, f32, equal, w.op(SpvOpBitcast, f32, bits), picked);
    int nan = w.op(SpvOpLogicalOr, bool, w.op(SpvOpIsNan, bool, a), w.op(SpvOpIsNan, bool, b));
    return w.op(SpvOpSelect, f32, nan, m.constantFloat(Float.NaN), result);
  }
}
