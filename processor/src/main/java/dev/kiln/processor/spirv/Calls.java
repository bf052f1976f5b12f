package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.PrimType;

/**
 * Library functions. Java's own ({@code Math.min}, {@code Float.floatToIntBits}, ...) are spelled
 * out where the GPU instruction differs from Java: NaN and signed zeros in min and max, ties in
 * round, zero in the bit scans. Rounding to integers, {@code abs} and {@code signum} of floats are
 * integer operations on the bits ({@link ExactRounding}), where drivers differ. The transcendental
 * ones are GLSL.std.450's.
 */
final class Calls {
  private Calls() {}

  /** The call of {@code function} on {@code args}, the first of which has type {@code first}. */
  static int emit(
      FunctionBuilder w, LaunchValues launch, Intrinsic function, int[] args, PrimType first) {
    SpirvModule m = w.module();
    int f32 = m.typeFloat();
    int i32 = m.typeInt();
    int bool = m.typeBool();
    int x = args.length > 0 ? args[0] : 0;
    int type = first == null ? 0 : w.typeOf(first);
    return switch (function) {
      case ABS ->
          first.isFloating()
              ? ExactRounding.abs(w, first, x)
              : w.op(
                  SpvOpSelect,
                  type,
                  w.op(SpvOpSLessThan, bool, x, w.zero(first)),
                  w.op(SpvOpSNegate, type, x),
                  x);
      case MIN ->
          first.isFloating()
              ? minMax(w, first, x, args[1], true)
              : w.glsl(Glsl.SMIN, type, x, args[1]);
      case MAX ->
          first.isFloating()
              ? minMax(w, first, x, args[1], false)
              : w.glsl(Glsl.SMAX, type, x, args[1]);
      case ROUND -> {
        // floor(x + 0.5) without rounding the sum: x - floor(x) is exact.
        boolean dbl = first == PrimType.DOUBLE;
        int floor = ExactRounding.round(w, first, ExactRounding.Mode.FLOOR, x);
        int fraction = Operators.exact(w, SpvOpFSub, type, x, floor);
        int up =
            w.op(
                SpvOpFOrdGreaterThanEqual,
                bool,
                fraction,
                dbl ? m.constantDouble(0.5) : m.constantFloat(0.5f));
        int one = dbl ? m.constantDouble(1.0) : m.constantFloat(1f);
        int rounded =
            w.op(SpvOpSelect, type, up, Operators.exact(w, SpvOpFAdd, type, floor, one), floor);
        yield w.floatToInteger(rounded, first, dbl ? PrimType.LONG : PrimType.INT);
      }
      case RINT -> ExactRounding.round(w, first, ExactRounding.Mode.RINT, x);
      case SIGNUM -> ExactRounding.signum(w, first, x);
      case FLOOR -> ExactRounding.round(w, first, ExactRounding.Mode.FLOOR, x);
      case CEIL -> ExactRounding.round(w, first, ExactRounding.Mode.CEIL, x);
      case FLOAT_TO_RAW_INT_BITS -> w.op(SpvOpBitcast, i32, x);
      case FLOAT_TO_INT_BITS ->
          w.op(
              SpvOpSelect,
              i32,
              w.op(SpvOpIsNan, bool, x),
              m.constantInt(Float.floatToIntBits(Float.NaN)),
              w.op(SpvOpBitcast, i32, x));
      case INT_BITS_TO_FLOAT -> w.op(SpvOpBitcast, f32, x);
      case DOUBLE_TO_RAW_LONG_BITS -> w.op(SpvOpBitcast, m.typeLong(), x);
      case LONG_BITS_TO_DOUBLE -> w.op(SpvOpBitcast, m.typeDouble(), x);
      case IS_NAN -> w.op(SpvOpIsNan, bool, x);
      case IS_INFINITE -> w.op(SpvOpIsInf, bool, x);
      case BIT_COUNT -> w.op(SpvOpBitCount, i32, x);
      case LEADING_ZEROS ->
          w.op(
              SpvOpSelect,
              i32,
              w.op(SpvOpIEqual, bool, x, m.constantInt(0)),
              m.constantInt(32),
              w.op(SpvOpISub, i32, m.constantInt(31), w.glsl(Glsl.FIND_UMSB, i32, x)));
      case TRAILING_ZEROS ->
          w.op(
              SpvOpSelect,
              i32,
              w.op(SpvOpIEqual, bool, x, m.constantInt(0)),
              m.constantInt(32),
              w.glsl(Glsl.FIND_ILSB, i32, x));
      case REVERSE_BITS -> w.op(SpvOpBitReverse, i32, x);
      case SQRT -> w.glsl(Glsl.SQRT, type, x);
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
      case UNPACK_HALF ->
          w.op(
              SpvOpCompositeExtract,
              f32,
              w.glsl(
                  Glsl.UNPACK_HALF_2X16,
                  m.type(SpvOpTypeVector, f32, 2),
                  w.op(SpvOpBitcast, m.typeUint(), x)),
              0);
      case HALF_CONVERSION_EXACT -> m.halfConversionExact();
      case SUBGROUP_SIZE -> launch.subgroupBuiltin(SpvBuiltInSubgroupSize);
      case SUBGROUP_INVOCATION -> launch.subgroupBuiltin(SpvBuiltInSubgroupLocalInvocationId);
      case SUBGROUP_ID -> launch.subgroupBuiltin(SpvBuiltInSubgroupId);
      case NUM_SUBGROUPS -> launch.subgroupBuiltin(SpvBuiltInNumSubgroups);
      case SUBGROUP_ADD ->
          reduce(
              w, first.isFloating() ? SpvOpGroupNonUniformFAdd : SpvOpGroupNonUniformIAdd, type, x);
      case SUBGROUP_MIN ->
          reduce(
              w, first.isFloating() ? SpvOpGroupNonUniformFMin : SpvOpGroupNonUniformSMin, type, x);
      case SUBGROUP_MAX ->
          reduce(
              w, first.isFloating() ? SpvOpGroupNonUniformFMax : SpvOpGroupNonUniformSMax, type, x);
      case SUBGROUP_BROADCAST -> {
        m.require(DeviceFeature.SUBGROUP_BALLOTS);
        yield w.op(
            SpvOpGroupNonUniformBroadcast,
            subgroupValue(m, type),
            subgroupScope(m),
            x,
            args[1]); // a uint constant
      }
      case ADD_EXACT, SUBTRACT_EXACT, MULTIPLY_EXACT, NEGATE_EXACT, TO_INT_EXACT, CLAMP ->
          throw new IllegalArgumentException(function + " may fault: CheckedCalls writes it");
      case SUBGROUP_ANY -> vote(w, SpvOpGroupNonUniformAny, x);
      case SUBGROUP_ALL -> vote(w, SpvOpGroupNonUniformAll, x);
      case SUBGROUP_ELECT -> w.op(SpvOpGroupNonUniformElect, m.typeBool(), subgroupScope(m));
      case SUBGROUP_SHUFFLE ->
          shuffle(
              w, SpvOpGroupNonUniformShuffle, DeviceFeature.SUBGROUP_SHUFFLES, type, x, args[1]);
      case SUBGROUP_SHUFFLE_XOR ->
          shuffle(
              w, SpvOpGroupNonUniformShuffleXor, DeviceFeature.SUBGROUP_SHUFFLES, type, x, args[1]);
      case SUBGROUP_SHUFFLE_UP ->
          shuffle(
              w,
              SpvOpGroupNonUniformShuffleUp,
              DeviceFeature.SUBGROUP_RELATIVE_SHUFFLES,
              type,
              x,
              args[1]);
      case SUBGROUP_SHUFFLE_DOWN ->
          shuffle(
              w,
              SpvOpGroupNonUniformShuffleDown,
              DeviceFeature.SUBGROUP_RELATIVE_SHUFFLES,
              type,
              x,
              args[1]);
      case SUBGROUP_INCLUSIVE_ADD -> scan(w, SpvGroupOperationInclusiveScan, first, type, x);
      case SUBGROUP_EXCLUSIVE_ADD -> scan(w, SpvGroupOperationExclusiveScan, first, type, x);
      case SUBGROUP_CLUSTERED_ADD ->
          clustered(
              w,
              first.isFloating() ? SpvOpGroupNonUniformFAdd : SpvOpGroupNonUniformIAdd,
              type,
              x,
              args[1]);
      case SUBGROUP_CLUSTERED_MIN ->
          clustered(
              w,
              first.isFloating() ? SpvOpGroupNonUniformFMin : SpvOpGroupNonUniformSMin,
              type,
              x,
              args[1]);
      case SUBGROUP_CLUSTERED_MAX ->
          clustered(
              w,
              first.isFloating() ? SpvOpGroupNonUniformFMax : SpvOpGroupNonUniformSMax,
              type,
              x,
              args[1]);
      case SUBGROUP_PARTITION -> {
        partitioned(m);
        int mask =
            w.op(SpvOpGroupNonUniformPartitionNV, m.type(SpvOpTypeVector, m.typeUint(), 4), x);
        yield w.op(SpvOpBitcast, i32, w.op(SpvOpCompositeExtract, m.typeUint(), mask, 0));
      }
      case SUBGROUP_PARTITIONED_ADD ->
          partitionedReduce(
              w,
              first.isFloating() ? SpvOpGroupNonUniformFAdd : SpvOpGroupNonUniformIAdd,
              type,
              x,
              args[1]);
      case SUBGROUP_PARTITIONED_MIN ->
          partitionedReduce(
              w,
              first.isFloating() ? SpvOpGroupNonUniformFMin : SpvOpGroupNonUniformSMin,
              type,
              x,
              args[1]);
      case SUBGROUP_PARTITIONED_MAX ->
          partitionedReduce(
              w,
              first.isFloating() ? SpvOpGroupNonUniformFMax : SpvOpGroupNonUniformSMax,
              type,
              x,
              args[1]);
      case SUBGROUP_BALLOT -> {
        m.require(DeviceFeature.SUBGROUP_BALLOTS);
        int mask =
            w.op(
                SpvOpGroupNonUniformBallot,
                m.type(SpvOpTypeVector, m.typeUint(), 4),
                subgroupScope(m),
                x);
        yield w.op(SpvOpBitcast, i32, w.op(SpvOpCompositeExtract, m.typeUint(), mask, 0));
      }
    };
  }

  /** Any or all of the subgroup's active invocations' predicates. */
  private static int vote(FunctionBuilder w, int opcode, int predicate) {
    w.module().require(DeviceFeature.SUBGROUP_VOTES);
    return w.op(opcode, w.module().typeBool(), subgroupScope(w.module()), predicate);
  }

  /** A reduction over the subgroup's active invocations. */
  private static int reduce(FunctionBuilder w, int opcode, int type, int value) {
    w.module().require(DeviceFeature.SUBGROUP_ARITHMETIC);
    return w.op(
        opcode,
        subgroupValue(w.module(), type),
        subgroupScope(w.module()),
        SpvGroupOperationReduce,
        value);
  }

  /** Another invocation's value; the lane, mask or delta is a uint, as SPIR-V demands. */
  private static int shuffle(
      FunctionBuilder w, int opcode, DeviceFeature feature, int type, int value, int lane) {
    w.module().require(feature);
    return w.op(
        opcode,
        subgroupValue(w.module(), type),
        subgroupScope(w.module()),
        value,
        w.op(SpvOpBitcast, w.module().typeUint(), lane));
  }

  /** An inclusive or exclusive sum over the subgroup's active invocations. */
  private static int scan(
      FunctionBuilder w, int operation, PrimType type, int spirvType, int value) {
    w.module().require(DeviceFeature.SUBGROUP_ARITHMETIC);
    int opcode = type.isFloating() ? SpvOpGroupNonUniformFAdd : SpvOpGroupNonUniformIAdd;
    return w.op(
        opcode, subgroupValue(w.module(), spirvType), subgroupScope(w.module()), operation, value);
  }

  /** A reduction over the active invocations of a cluster; {@code size} is a uint constant. */
  private static int clustered(FunctionBuilder w, int opcode, int type, int value, int size) {
    w.module().require(DeviceFeature.SUBGROUP_CLUSTERS);
    return w.op(
        opcode,
        subgroupValue(w.module(), type),
        subgroupScope(w.module()),
        SpvGroupOperationClusteredReduce,
        value,
        size);
  }

  /**
   * A reduction over the active invocations of a partition, {@code mask} (an int) as the ballot's
   * first word.
   */
  private static int partitionedReduce(
      FunctionBuilder w, int opcode, int type, int value, int mask) {
    SpirvModule m = w.module();
    partitioned(m);
    int uint = m.typeUint();
    int ballot =
        w.op(
            SpvOpCompositeConstruct,
            m.type(SpvOpTypeVector, uint, 4),
            w.op(SpvOpBitcast, uint, mask),
            m.constantUint(0),
            m.constantUint(0),
            m.constantUint(0));
    return w.op(
        opcode,
        subgroupValue(m, type),
        subgroupScope(m),
        SpvGroupOperationPartitionedReduceNV,
        value,
        ballot);
  }

  private static void partitioned(SpirvModule m) {
    m.require(DeviceFeature.SUBGROUP_PARTITIONS);
  }

  private static int subgroupScope(SpirvModule m) {
    m.require(DeviceFeature.SUBGROUPS);
    return m.constantUint(SpvScopeSubgroup);
  }

  /**
   * {@code type}, the type of a value a subgroup operation exchanges: on longs, it needs extended
   * types.
   */
  private static int subgroupValue(SpirvModule m, int type) {
    if (m.isLong(type)) {
      m.require(DeviceFeature.SUBGROUP_LONGS);
    }
    return type;
  }

  /**
   * Java's {@code Math.min}/{@code max}: NaN if either is NaN, and {@code -0.0} below {@code 0.0}.
   * For equal operands (zeros of either sign among them) min takes a negative zero if there is one,
   * max a positive one; a zero's sign shows in the sign of {@code 1 / zero}.
   */
  static int minMax(FunctionBuilder w, PrimType type, int a, int b, boolean min) {
    SpirvModule m = w.module();
    int t = w.typeOf(type);
    int bool = m.typeBool();
    int better = w.op(min ? SpvOpFOrdLessThan : SpvOpFOrdGreaterThan, bool, a, b);
    int picked = w.op(SpvOpSelect, t, better, a, b);
    int one = type == PrimType.DOUBLE ? m.constantDouble(1.0) : m.constantFloat(1f);
    int aNegative = w.op(SpvOpFOrdLessThan, bool, w.exactOp(SpvOpFDiv, t, one, a), w.zero(type));
    int equalPick = w.op(SpvOpSelect, t, aNegative, min ? a : b, min ? b : a);
    int result = w.op(SpvOpSelect, t, w.op(SpvOpFOrdEqual, bool, a, b), equalPick, picked);
    int nan = w.op(SpvOpLogicalOr, bool, w.op(SpvOpIsNan, bool, a), w.op(SpvOpIsNan, bool, b));
    int nanValue =
        type == PrimType.DOUBLE ? m.constantDouble(Double.NaN) : m.constantFloat(Float.NaN);
    return w.op(SpvOpSelect, t, nan, nanValue, result);
  }
}
