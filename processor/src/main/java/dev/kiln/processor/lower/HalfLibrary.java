package dev.kiln.processor.lower;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import java.util.List;

/**
 * Java's conversions between {@code float} and IEEE 754 binary16, {@code Float.floatToFloat16} and
 * {@code Float.float16ToFloat}, composed from integer operations on the bits so that every device
 * gives the JDK's results: rounding to nearest even, binary16 subnormals exact (a GPU's own
 * conversion may flush them), a NaN's sign and top significand bits carried over and the NaN made
 * quiet, as the JDK does (measured on JDK 25, interpreted and compiled alike). Each function
 * evaluates its argument once, into a local of its own, and reads that local as often as it needs.
 */
final class HalfLibrary {
  /** The float bits of the smallest magnitude that rounds to binary16 infinity: 65504 + 16. */
  private static final int TO_INFINITY = Float.floatToRawIntBits(65520f);

  /**
   * The float bits of 2^-25, half the smallest binary16 subnormal: it and all below round to zero.
   */
  private static final int TO_ZERO = Float.floatToRawIntBits(0x1p-25f);

  private static final int FLOAT_INFINITY = 0x7f80_0000;
  private static final int HALF_INFINITY = 0x7c00;

  /**
   * The quiet bits, the top bit of the significands: a NaN comes out of either conversion quiet, as
   * on x86.
   */
  private static final int FLOAT_QUIET = 0x0040_0000;

  private static final int HALF_QUIET = 0x0200;

  /** What {@link #deviceHalf} adds to a binary16 exponent so that its float is never subnormal. */
  private static final int DEVICE_HALF_BIAS = 224;

  private HalfLibrary() {}

  /** {@code Float.floatToFloat16(x)}: the binary16 nearest x (ties to even), as a short's bits. */
  static Expr toHalf(List<Expr> args) {
    Local bitsLocal = Local.fresh("floatBits", PrimType.INT);
    Local exponentLocal = Local.fresh("halfExponent", PrimType.INT);
    Local subnormalLocal = Local.fresh("halfSubnormal", PrimType.BOOLEAN);
    Local shiftLocal = Local.fresh("halfShift", PrimType.INT);
    Local significandLocal = Local.fresh("halfSignificand", PrimType.INT);
    Expr bits = new Expr.LocalGet(bitsLocal);
    Expr exponent = new Expr.LocalGet(exponentLocal);
    Expr subnormal = new Expr.LocalGet(subnormalLocal);
    Expr shift = new Expr.LocalGet(shiftLocal);
    Expr significand = new Expr.LocalGet(significandLocal);

    Expr magnitude = and(bits, 0x7fff_ffff);
    Expr sign = and(binary(BinaryOp.USHR, bits, constant(16)), 0x8000);
    // a NaN keeps its sign and the top 10 bits of its significand, and is quiet
    Expr nan =
        or(
            or(sign, constant(HALF_INFINITY | HALF_QUIET)),
            binary(BinaryOp.USHR, and(bits, 0x007f_ffff), constant(13)));
    // finite and in range: the significand shifted down to binary16's 10 bits (more for a
    // subnormal, with the hidden bit), rounded to nearest even; a carry runs into the exponent
    Expr truncated = binary(BinaryOp.SHR, significand, shift);
    Expr rest =
        binary(
            BinaryOp.AND,
            significand,
            binary(BinaryOp.SUB, binary(BinaryOp.SHL, constant(1), shift), constant(1)));
    Expr half = binary(BinaryOp.SHL, constant(1), binary(BinaryOp.SUB, shift, constant(1)));
    Expr roundsUp =
        binary(
            BinaryOp.OR,
            binary(BinaryOp.GT, rest, half),
            binary(
                BinaryOp.AND,
                binary(BinaryOp.EQ, rest, half),
                binary(BinaryOp.EQ, and(truncated, 1), constant(1))));
    Expr biased =
        new Expr.Conditional(subnormal, constant(0), binary(BinaryOp.ADD, exponent, constant(15)));
    Expr finite =
        or(
            sign,
            binary(
                BinaryOp.ADD,
                binary(BinaryOp.ADD, binary(BinaryOp.SHL, biased, constant(10)), truncated),
                new Expr.Conditional(roundsUp, constant(1), constant(0))));
    Expr inRange =
        new Expr.Let(
            exponentLocal,
            binary(BinaryOp.SUB, binary(BinaryOp.USHR, magnitude, constant(23)), constant(127)),
            new Expr.Let(
                subnormalLocal,
                binary(BinaryOp.LT, exponent, constant(-14)),
                new Expr.Let(
                    shiftLocal,
                    new Expr.Conditional(
                        subnormal, binary(BinaryOp.SUB, constant(-1), exponent), constant(13)),
                    new Expr.Let(
                        significandLocal,
                        or(
                            and(bits, 0x007f_ffff),
                            new Expr.Conditional(subnormal, constant(0x0080_0000), constant(0))),
                        finite))));
    Expr result =
        new Expr.Conditional(
            binary(BinaryOp.GT, magnitude, constant(FLOAT_INFINITY)),
            nan,
            new Expr.Conditional(
                binary(BinaryOp.GE, magnitude, constant(TO_INFINITY)),
                or(sign, constant(HALF_INFINITY)),
                new Expr.Conditional(
                    binary(BinaryOp.LE, magnitude, constant(TO_ZERO)), sign, inRange)));
    return new Expr.Let(
        bitsLocal,
        new Expr.Call(Intrinsic.FLOAT_TO_RAW_INT_BITS, List.of(args.getFirst())),
        new Expr.Convert(PrimType.SHORT, result));
  }

  /**
   * {@code Float.float16ToFloat(h)}: the float equal to binary16 h (exact; a NaN's significand
   * moved up, made quiet).
   */
  static Expr fromHalf(List<Expr> args) {
    Local halfLocal = Local.fresh("halfBits", PrimType.INT);
    Expr half = new Expr.LocalGet(halfLocal);
    Expr sign = binary(BinaryOp.SHL, and(half, 0x8000), constant(16));
    Expr exponent = and(binary(BinaryOp.USHR, half, constant(10)), 0x1f);
    Expr significand = and(half, 0x3ff);
    // a subnormal or zero is its significand times 2^-24, a normal float: exact everywhere
    Expr small =
        or(
            new Expr.Call(
                Intrinsic.FLOAT_TO_RAW_INT_BITS,
                List.of(
                    binary(
                        BinaryOp.MUL,
                        new Expr.Convert(PrimType.FLOAT, significand),
                        new Expr.FloatConst(0x1p-24f)))),
            sign);
    // an infinity stays one; a NaN is made quiet
    Expr special =
        new Expr.Conditional(
            binary(BinaryOp.EQ, significand, constant(0)),
            constant(FLOAT_INFINITY),
            constant(FLOAT_INFINITY | FLOAT_QUIET));
    Expr exponentBits =
        new Expr.Conditional(
            binary(BinaryOp.EQ, exponent, constant(31)),
            special,
            binary(BinaryOp.SHL, binary(BinaryOp.ADD, exponent, constant(127 - 15)), constant(23)));
    Expr other = or(or(sign, exponentBits), binary(BinaryOp.SHL, significand, constant(13)));
    Expr bits = new Expr.Conditional(binary(BinaryOp.EQ, exponent, constant(0)), small, other);
    return new Expr.Let(
        halfLocal,
        and(new Expr.Convert(PrimType.INT, args.getFirst()), 0xffff),
        new Expr.Call(Intrinsic.INT_BITS_TO_FLOAT, List.of(bits)));
  }

  /**
   * {@code Gpu.float16ToFloat(h)}: binary16 h's value for arithmetic, exact but for a NaN's bits.
   * Where the runtime sets {@link Intrinsic#HALF_CONVERSION_EXACT} (the device keeps binary16
   * subnormals) it is the device's conversion, {@link Intrinsic#UNPACK_HALF}; elsewhere integer and
   * float operations without a subnormal float operand (which drivers that flush read as zero): h's
   * exponent and significand moved under a float's (bits 27 to 13) with the exponent's bias raised
   * by 224 (an OR: the exponent is below 32) and scaled by 2^-112 give the magnitude of every value
   * but the zeros and subnormals (exponent 0; exponent 31 lands on the infinities and NaNs), which
   * come out as {@code 2^-15 + |v| / 2}. There {@code 2·scaled - 2^-14} is {@code |v|} (exact, and
   * below {@code scaled}); for the other values it is at least {@code scaled} (fused or not), and a
   * NaN fails the comparison: the smaller of the two is the magnitude. The sign goes back last, so
   * a negative zero stays one.
   */
  static Expr deviceHalf(List<Expr> args) {
    Local halfLocal = Local.fresh("halfBits", PrimType.INT);
    Local scaledLocal = Local.fresh("halfScaled", PrimType.FLOAT);
    Local smallLocal = Local.fresh("halfSmall", PrimType.FLOAT);
    Expr half = new Expr.LocalGet(halfLocal);
    Expr scaled = new Expr.LocalGet(scaledLocal);
    Expr small = new Expr.LocalGet(smallLocal);
    Expr biased =
        or(
            and(binary(BinaryOp.SHL, half, constant(13)), 0x0fff_e000),
            constant(DEVICE_HALF_BIAS << 23));
    Expr magnitude = new Expr.Conditional(binary(BinaryOp.LT, small, scaled), small, scaled);
    Expr signed =
        or(
            new Expr.Call(Intrinsic.FLOAT_TO_RAW_INT_BITS, List.of(magnitude)),
            binary(BinaryOp.SHL, and(half, 0x8000), constant(16)));
    Expr integer =
        new Expr.Let(
            scaledLocal,
            binary(
                BinaryOp.MUL,
                new Expr.Call(Intrinsic.INT_BITS_TO_FLOAT, List.of(biased)),
                new Expr.FloatConst(0x1p-112f)),
            new Expr.Let(
                smallLocal,
                new Expr.Call(
                    Intrinsic.FMA,
                    List.of(scaled, new Expr.FloatConst(2f), new Expr.FloatConst(-0x1p-14f))),
                new Expr.Call(Intrinsic.INT_BITS_TO_FLOAT, List.of(signed))));
    return new Expr.Let(
        halfLocal,
        and(new Expr.Convert(PrimType.INT, args.getFirst()), 0xffff),
        new Expr.Conditional(
            new Expr.Call(Intrinsic.HALF_CONVERSION_EXACT, List.of()),
            new Expr.Call(Intrinsic.UNPACK_HALF, List.of(half)),
            integer));
  }

  private static Expr and(Expr x, int mask) {
    return binary(BinaryOp.AND, x, constant(mask));
  }

  private static Expr or(Expr x, Expr y) {
    return binary(BinaryOp.OR, x, y);
  }

  private static Expr constant(int value) {
    return new Expr.IntConst(value);
  }

  private static Expr binary(BinaryOp op, Expr left, Expr right) {
    return new Expr.Binary(op, left, right);
  }
}
