package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.PrimType;

/**
 * {@code floor}, {@code ceil}, {@code rint}, {@code abs} and {@code signum} of floats and doubles
 * from integer operations on their bits, which every Vulkan driver computes exactly. GLSL.std.450's
 * {@code Floor}, {@code Ceil}, {@code RoundEven} and {@code FAbs} are exact by the specification,
 * but drivers get them wrong: lavapipe compiles them for the host's CPU, and on some AMD EPYC hosts
 * its {@code RoundEven} gave {@code -3.0} for {@code Math.rint(-3.5)}. Nothing here is left to a
 * driver's floating-point unit, so the bits are Java's wherever integers are right.
 *
 * <p>A value whose exponent {@code e} is at least the significand's width (integers, infinities and
 * NaN) is its own result. Below 1 in magnitude the result is a zero or a one of the right sign.
 * Between, the low {@code width - e} bits of the magnitude are its fraction: cleared to truncate,
 * and one unit of the integer part added to the truncated magnitude where the rounding goes away
 * from zero (a carry into the exponent is right: it makes the next power of two).
 */
final class ExactRounding {
  private final FunctionBuilder w;
  private final SpirvModule m;
  private final PrimType type;
  private final PrimType bits;
  private final int width;
  private final int bias;
  private final int t;
  private final int b;
  private final int bool;

  private ExactRounding(FunctionBuilder w, PrimType type) {
    this.w = w;
    this.m = w.module();
    this.type = type;
    this.bits = type == PrimType.DOUBLE ? PrimType.LONG : PrimType.INT;
    this.width = type == PrimType.DOUBLE ? 52 : 23;
    this.bias = type == PrimType.DOUBLE ? 1023 : 127;
    this.t = w.typeOf(type);
    this.b = w.typeOf(bits);
    this.bool = m.typeBool();
  }

  /** How an integral result is chosen. */
  enum Mode {
    FLOOR,
    CEIL,
    RINT
  }

  /** {@code Math.floor}, {@code Math.ceil} or {@code Math.rint} of {@code x}, a {@code type}. */
  static int round(FunctionBuilder w, PrimType type, Mode mode, int x) {
    return new ExactRounding(w, type).round(mode, x);
  }

  /** {@code Math.abs} of a float or double: the sign bit cleared. */
  static int abs(FunctionBuilder w, PrimType type, int x) {
    ExactRounding r = new ExactRounding(w, type);
    return r.fromBits(r.andConstant(r.toBits(x), ~r.signBit()));
  }

  /** {@code Math.signum}: zeros and NaN are their own result, anything else is 1 with its sign. */
  static int signum(FunctionBuilder w, PrimType type, int x) {
    ExactRounding r = new ExactRounding(w, type);
    int raw = r.toBits(x);
    int one = r.or(r.andConstant(raw, r.signBit()), r.bitsOf(1.0));
    int magnitude = r.andConstant(raw, ~r.signBit());
    int keep =
        w.op(
            SpvOpLogicalOr,
            r.bool,
            r.equal(magnitude, 0),
            r.unsignedGreater(magnitude, r.bitsOf(Double.POSITIVE_INFINITY)));
    return r.fromBits(w.op(SpvOpSelect, r.b, keep, raw, one));
  }

  private int round(Mode mode, int x) {
    int raw = toBits(x);
    int sign = andConstant(raw, signBit());
    int magnitude = andConstant(raw, ~signBit());
    int exponent =
        w.op(
            SpvOpISub,
            b,
            w.op(SpvOpShiftRightLogical, b, magnitude, constant(width)),
            constant(bias));
    int negative = w.op(SpvOpINotEqual, bool, sign, constant(0));

    // below 1 in magnitude: a zero or a one of the right sign
    int one = bitsOf(1.0);
    int zero = constant(0);
    int small =
        switch (mode) {
          case RINT -> select(unsignedGreater(magnitude, bitsOf(0.5)), one, zero);
          case FLOOR -> select(negative, one, zero);
          case CEIL -> select(negative, zero, one);
        };
    int belowOne = select(equal(magnitude, 0), raw, or(sign, small));

    // 1 up to 2^width: clear the fraction, and add a unit where the rounding goes away from zero
    int inRange =
        w.op(
            SpvOpLogicalAnd,
            bool,
            w.op(SpvOpSGreaterThanEqual, bool, exponent, constant(0)),
            w.op(SpvOpSLessThan, bool, exponent, constant(width)));
    int fractionBits = w.op(SpvOpISub, b, constant(width), select(inRange, exponent, constant(0)));
    int unit = w.op(SpvOpShiftLeftLogical, b, constant(1), fractionBits);
    int mask = w.op(SpvOpISub, b, unit, constant(1));
    int fraction = and(magnitude, mask);
    int truncated = w.op(SpvOpBitwiseAnd, b, magnitude, w.op(SpvOpNot, b, mask));
    int hasFraction = w.op(SpvOpINotEqual, bool, fraction, constant(0));
    int away =
        switch (mode) {
          case FLOOR -> w.op(SpvOpLogicalAnd, bool, negative, hasFraction);
          case CEIL ->
              w.op(SpvOpLogicalAnd, bool, w.op(SpvOpLogicalNot, bool, negative), hasFraction);
          case RINT -> {
            int half = w.op(SpvOpShiftRightLogical, b, unit, constant(1));
            int odd =
                w.op(SpvOpINotEqual, bool, w.op(SpvOpBitwiseAnd, b, truncated, unit), constant(0));
            int tie = w.op(SpvOpLogicalAnd, bool, w.op(SpvOpIEqual, bool, fraction, half), odd);
            yield w.op(SpvOpLogicalOr, bool, unsignedGreater(fraction, half), tie);
          }
        };
    int integral = or(sign, select(away, w.op(SpvOpIAdd, b, truncated, unit), truncated));

    int result =
        select(
            inRange,
            integral,
            select(w.op(SpvOpSLessThan, bool, exponent, constant(0)), belowOne, raw));
    return fromBits(result);
  }

  private long signBit() {
    return bits == PrimType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
  }

  /** The bits of {@code value} in this type, as a constant. */
  private int bitsOf(double value) {
    return constant(
        type == PrimType.FLOAT
            ? Float.floatToRawIntBits((float) value)
            : Double.doubleToRawLongBits(value));
  }

  private int constant(long value) {
    return w.constant(bits, value);
  }

  private int toBits(int x) {
    return w.op(SpvOpBitcast, b, x);
  }

  private int fromBits(int x) {
    return w.op(SpvOpBitcast, t, x);
  }

  private int andConstant(int x, long mask) {
    return w.op(SpvOpBitwiseAnd, b, x, constant(mask));
  }

  private int and(int x, int y) {
    return w.op(SpvOpBitwiseAnd, b, x, y);
  }

  private int or(int x, int y) {
    return w.op(SpvOpBitwiseOr, b, x, y);
  }

  private int equal(int x, long value) {
    return w.op(SpvOpIEqual, bool, x, constant(value));
  }

  private int unsignedGreater(int x, int y) {
    return w.op(SpvOpUGreaterThan, bool, x, y);
  }

  private int select(int condition, int x, int y) {
    return w.op(SpvOpSelect, b, condition, x, y);
  }
}
