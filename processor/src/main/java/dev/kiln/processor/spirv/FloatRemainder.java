package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.PrimType;

/**
 * Java's floating-point remainder ({@code fmod}): exact, with the dividend's sign. Vulkan's OpFRem
 * is neither (drivers compute {@code x - y * trunc(x / y)}). This is binary long division on the
 * magnitudes: with {@code k} the exponent difference, subtract {@code |y| * 2^k} whenever it fits
 * and halve it, down to {@code |y|}. Each subtraction is exact (Sterbenz: the subtrahend is at
 * least half the minuend), so the remainder is too. {@code |y| * 2^k} is made by multiplying with
 * powers of two built from their bits, not by Ldexp, which lavapipe gets wrong for a subnormal
 * {@code y} (it gave {@code 3e38f % Float.MIN_VALUE} as 2.99999e38); every product and halving is
 * exact, since each value lies between {@code |y|} and {@code |x|}.
 */
final class FloatRemainder {
  private FloatRemainder() {}

  static int emit(FunctionBuilder w, PrimType type, int x, int y) {
    SpirvModule m = w.module();
    int t = w.typeOf(type);
    int i32 = m.typeInt();
    int bool = m.typeBool();
    int zero = w.zero(type);
    int ax = ExactRounding.abs(w, type, x);
    int ay = ExactRounding.abs(w, type, y);

    // The long division runs for finite x and y with 0 < |y| <= |x|. Finiteness is read off the
    // bits:
    // a driver that folds IsInf or NaN comparisons away (lavapipe can) must not run it on an
    // infinity,
    // whose Frexp exponent is unspecified and can make the loop run for minutes.
    int divides =
        w.op(
            SpvOpLogicalAnd,
            bool,
            w.op(
                SpvOpLogicalAnd,
                bool,
                w.op(SpvOpFOrdGreaterThan, bool, ay, zero),
                w.op(SpvOpFOrdGreaterThanEqual, bool, ax, ay)),
            w.op(SpvOpLogicalAnd, bool, finite(w, type, x), finite(w, type, y)));
    int remainder = w.temporary(t);
    int shift = w.temporary(i32);
    int subtrahend = w.temporary(t);
    w.store(remainder, ax);
    w.when(
        divides,
        () -> {
          int difference = w.op(SpvOpISub, i32, exponent(w, type, ax), exponent(w, type, ay));
          w.store(shift, difference);
          // |y| * 2^k in three exact steps: k is at most 277 (2098 for double), each third a normal
          // power
          int third = w.op(SpvOpSDiv, i32, difference, m.constantInt(3));
          int rest = w.op(SpvOpISub, i32, difference, w.op(SpvOpIAdd, i32, third, third));
          int twice =
              w.exactOp(
                  SpvOpFMul,
                  t,
                  w.exactOp(SpvOpFMul, t, ay, powerOfTwo(w, type, third)),
                  powerOfTwo(w, type, third));
          w.store(subtrahend, w.exactOp(SpvOpFMul, t, twice, powerOfTwo(w, type, rest)));
          int half = type == PrimType.DOUBLE ? m.constantDouble(0.5) : m.constantFloat(0.5f);
          FunctionBuilder.LoopBlocks loop = w.openLoop();
          int k = w.load(i32, shift);
          loop.bodyIf(w, w.op(SpvOpSGreaterThanEqual, bool, k, m.constantInt(0)));
          int scaled = w.load(t, subtrahend);
          int r = w.load(t, remainder);
          int fits = w.op(SpvOpFOrdGreaterThanEqual, bool, r, scaled);
          w.store(remainder, w.op(SpvOpSelect, t, fits, w.exactOp(SpvOpFSub, t, r, scaled), r));
          w.store(subtrahend, w.exactOp(SpvOpFMul, t, scaled, half));
          w.store(shift, w.op(SpvOpISub, i32, k, m.constantInt(1)));
          w.closeLoop(loop);
        });

    // Where the division ran, x is finite and non-zero: the result takes its sign (-5 % 5 is -0).
    int magnitude = w.load(t, remainder);
    int signed =
        w.op(
            SpvOpSelect,
            t,
            w.op(SpvOpFOrdLessThan, bool, x, zero),
            w.exactOp(SpvOpFNegate, t, magnitude),
            magnitude);
    // NaN when x is infinite or NaN, or y is zero or NaN; x itself when |x| < |y| (y infinite too).
    int undefined =
        w.op(
            SpvOpLogicalOr,
            bool,
            w.op(SpvOpLogicalOr, bool, w.op(SpvOpIsNan, bool, x), w.op(SpvOpIsNan, bool, y)),
            w.op(
                SpvOpLogicalOr,
                bool,
                w.op(SpvOpIsInf, bool, x),
                w.op(SpvOpFOrdEqual, bool, y, zero)));
    int result = w.op(SpvOpSelect, t, divides, signed, x);
    int nan = type == PrimType.DOUBLE ? m.constantDouble(Double.NaN) : m.constantFloat(Float.NaN);
    return w.op(SpvOpSelect, t, undefined, nan, result);
  }

  /** {@code 2^e} for {@code 0 <= e <= 127} (1023 for double), from its bits. */
  private static int powerOfTwo(FunctionBuilder w, PrimType type, int e) {
    SpirvModule m = w.module();
    int i32 = m.typeInt();
    if (type
        == PrimType.DOUBLE) { // the high word of the two a double is made of: exponent at bit 20
      int u32 = m.typeUint();
      int high =
          w.op(
              SpvOpBitcast,
              u32,
              w.op(
                  SpvOpShiftLeftLogical,
                  i32,
                  w.op(SpvOpIAdd, i32, e, m.constantInt(1023)),
                  m.constantInt(20)));
      int words =
          w.op(SpvOpCompositeConstruct, m.type(SpvOpTypeVector, u32, 2), m.constantUint(0), high);
      return w.op(SpvOpBitcast, m.typeDouble(), words);
    }
    return w.op(
        SpvOpBitcast,
        m.typeFloat(),
        w.op(
            SpvOpShiftLeftLogical,
            i32,
            w.op(SpvOpIAdd, i32, e, m.constantInt(127)),
            m.constantInt(23)));
  }

  /** Whether {@code value} is finite, from its exponent bits (all ones for infinities and NaN). */
  private static int finite(FunctionBuilder w, PrimType type, int value) {
    SpirvModule m = w.module();
    int u32 = m.typeUint();
    int high =
        type == PrimType.DOUBLE // the high word of the two a double is made of
            ? w.op(
                SpvOpCompositeExtract,
                u32,
                w.op(SpvOpBitcast, m.type(SpvOpTypeVector, u32, 2), value),
                1)
            : w.op(SpvOpBitcast, u32, value);
    int mask = m.constant(u32, type == PrimType.DOUBLE ? 0x7ff00000 : 0x7f800000);
    return w.op(SpvOpINotEqual, m.typeBool(), w.op(SpvOpBitwiseAnd, u32, high, mask), mask);
  }

  /**
   * The exponent e of {@code value = m * 2^e} with {@code 0.5 <= m < 1}, for a finite positive
   * value. A subnormal one is scaled into the normal range first: drivers may lower Frexp by
   * reading the exponent field (lavapipe does), which is wrong for subnormals.
   */
  private static int exponent(FunctionBuilder w, PrimType type, int value) {
    SpirvModule m = w.module();
    int t = w.typeOf(type);
    boolean isDouble = type == PrimType.DOUBLE;
    int scale =
        isDouble ? 54 : 24; // at least the significand's width: every subnormal becomes normal
    int subnormal =
        w.op(
            SpvOpFOrdLessThan,
            m.typeBool(),
            value,
            isDouble ? m.constantDouble(Double.MIN_NORMAL) : m.constantFloat(Float.MIN_NORMAL));
    int scaled =
        w.exactOp(
            SpvOpFMul,
            t,
            value,
            isDouble
                ? m.constantDouble(Math.scalb(1.0, scale))
                : m.constantFloat(Math.scalb(1f, scale)));
    int struct = m.type(SpvOpTypeStruct, t, m.typeInt());
    int e =
        w.op(
            SpvOpCompositeExtract,
            m.typeInt(),
            w.glsl(Glsl.FREXP_STRUCT, struct, w.op(SpvOpSelect, t, subnormal, scaled, value)),
            1);
    return w.op(
        SpvOpSelect,
        m.typeInt(),
        subnormal,
        w.op(SpvOpISub, m.typeInt(), e, m.constantInt(scale)),
        e);
  }
}
