package dev.kiln.processor.lower;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import java.util.List;

/**
 * {@code Integer} and {@code Float} methods that Kiln composes from other operations, each exactly
 * as its JDK implementation computes it. {@link Library} evaluates the arguments once: a method here
 * may use an argument several times.
 */
final class BitLibrary {
  private BitLibrary() {}

  /** {@code Integer.reverseBytes}. */
  static Expr reverseBytes(List<Expr> args) {
    Expr x = args.getFirst();
    return or(or(shl(x, 24), shl(and(x, 0xff00), 8)), or(and(ushr(x, 8), 0xff00), ushr(x, 24)));
  }

  /**
   * {@code Integer.compare}, {@code Long.compare}, and {@code Integer.compareUnsigned} (on the
   * arguments plus MIN_VALUE).
   */
  static Expr compare(List<Expr> args, boolean unsigned) {
    Expr a = unsigned ? add(args.get(0), Integer.MIN_VALUE) : args.get(0);
    Expr b = unsigned ? add(args.get(1), Integer.MIN_VALUE) : args.get(1);
    return choose(new Expr.Binary(BinaryOp.LT, a, b), -1, choose(new Expr.Binary(BinaryOp.EQ, a, b), 0, 1));
  }

  /** {@code Integer.toUnsignedLong}. */
  static Expr toUnsignedLong(Expr x) {
    return new Expr.Binary(BinaryOp.AND, new Expr.Convert(PrimType.LONG, x), new Expr.LongConst(0xffffffffL));
  }

  /** {@code Integer.divideUnsigned} ({@code DIV}) and {@code remainderUnsigned} ({@code REM}), in long. */
  static Expr unsigned(BinaryOp op, List<Expr> args) {
    return new Expr.Convert(PrimType.INT, new Expr.Binary(op, toUnsignedLong(args.get(0)), toUnsignedLong(args.get(1))));
  }

  /** {@code Float.compare}: -0f before 0f, NaN after everything and equal to itself. */
  static Expr floatCompare(List<Expr> args) {
    return floatingCompare(args, x -> new Expr.Call(Intrinsic.FLOAT_TO_INT_BITS, List.of(x)));
  }

  /** {@code Double.compare}, as {@link #floatCompare}. */
  static Expr doubleCompare(List<Expr> args) {
    return floatingCompare(args, BitLibrary::doubleToLongBits);
  }

  /** The JDK's comparison of floating values: the ordered tests, then their canonical bits compared. */
  private static Expr floatingCompare(List<Expr> args, java.util.function.UnaryOperator<Expr> canonicalBits) {
    Expr a = args.get(0);
    Expr b = args.get(1);
    return choose(new Expr.Binary(BinaryOp.LT, a, b), -1, choose(new Expr.Binary(BinaryOp.GT, a, b), 1,
        compare(List.of(canonicalBits.apply(a), canonicalBits.apply(b)), false)));
  }

  /** {@code Math.copySign(float, float)}: the magnitude of the first, the sign bit of the second. */
  static Expr copySign(List<Expr> args) {
    return fromBits(or(and(bits(args.get(0)), 0x7fffffff), and(bits(args.get(1)), 0x80000000)));
  }

  /** {@code Math.getExponent(float)}: the unbiased exponent, 128 for NaN and infinities, -127 for 0 and subnormals. */
  static Expr getExponent(List<Expr> args) {
    return add(new Expr.Binary(BinaryOp.SHR, and(bits(args.getFirst()), 0x7f800000), new Expr.IntConst(23)), -127);
  }

  /** {@code Math.nextUp(float)}; both zeros step to the smallest positive float. */
  static Expr nextUp(List<Expr> args) {
    Expr f = args.getFirst();
    Expr stays = new Expr.Binary(BinaryOp.OR, new Expr.Call(Intrinsic.IS_NAN, List.of(f)),
        new Expr.Binary(BinaryOp.EQ, f, new Expr.FloatConst(Float.POSITIVE_INFINITY)));
    Expr step = choose(new Expr.Binary(BinaryOp.GT, f, new Expr.FloatConst(0f)), 1, -1);
    Expr next = new Expr.Conditional(new Expr.Binary(BinaryOp.EQ, f, new Expr.FloatConst(0f)),
        new Expr.FloatConst(Float.MIN_VALUE), fromBits(new Expr.Binary(BinaryOp.ADD, bits(f), step)));
    return new Expr.Conditional(stays, f, next);
  }

  /** {@code Math.nextDown(float)}; both zeros step to the largest negative float. */
  static Expr nextDown(List<Expr> args) {
    Expr f = args.getFirst();
    Expr stays = new Expr.Binary(BinaryOp.OR, new Expr.Call(Intrinsic.IS_NAN, List.of(f)),
        new Expr.Binary(BinaryOp.EQ, f, new Expr.FloatConst(Float.NEGATIVE_INFINITY)));
    Expr step = choose(new Expr.Binary(BinaryOp.GT, f, new Expr.FloatConst(0f)), -1, 1);
    Expr next = new Expr.Conditional(new Expr.Binary(BinaryOp.EQ, f, new Expr.FloatConst(0f)),
        new Expr.FloatConst(-Float.MIN_VALUE), fromBits(new Expr.Binary(BinaryOp.ADD, bits(f), step)));
    return new Expr.Conditional(stays, f, next);
  }

  /** {@code Math.ulp(float)}: the distance to the next float away from zero, made from its exponent. */
  static Expr ulp(List<Expr> args) {
    Expr f = args.getFirst();
    Local bound = Local.fresh("exponent", PrimType.INT);
    Expr exponent = new Expr.LocalGet(bound);
    Expr normal = fromBits(shl(add(exponent, 127 - 23), 23)); // 2^(exponent - 23), normal
    Expr tiny = fromBits(new Expr.Binary(BinaryOp.SHL, new Expr.IntConst(1), add(exponent, 149 - 23)));
    Expr finite = new Expr.Conditional(new Expr.Binary(BinaryOp.GE, exponent, new Expr.IntConst(-126 + 23)), normal, tiny);
    return new Expr.Let(bound, getExponent(args), new Expr.Conditional(
        new Expr.Binary(BinaryOp.EQ, exponent, new Expr.IntConst(128)), new Expr.Call(Intrinsic.ABS, List.of(f)),
        new Expr.Conditional(new Expr.Binary(BinaryOp.EQ, exponent, new Expr.IntConst(-127)),
            new Expr.FloatConst(Float.MIN_VALUE), finite)));
  }

  /** {@code Long.bitCount}, {@code numberOfLeadingZeros} and the like, from the int ones on the two halves. */
  static Expr longBits(String method, List<Expr> args) {
    Expr x = args.getFirst();
    Expr low = new Expr.Convert(PrimType.INT, x);
    Expr high = new Expr.Convert(PrimType.INT, new Expr.Binary(BinaryOp.USHR, x, new Expr.IntConst(32)));
    return switch (method) {
      case "bitCount" -> new Expr.Binary(BinaryOp.ADD, call(Intrinsic.BIT_COUNT, low), call(Intrinsic.BIT_COUNT, high));
      case "numberOfLeadingZeros" -> new Expr.Conditional(new Expr.Binary(BinaryOp.NE, high, new Expr.IntConst(0)),
          call(Intrinsic.LEADING_ZEROS, high), add(call(Intrinsic.LEADING_ZEROS, low), 32));
      case "numberOfTrailingZeros" -> new Expr.Conditional(new Expr.Binary(BinaryOp.NE, low, new Expr.IntConst(0)),
          call(Intrinsic.TRAILING_ZEROS, low), add(call(Intrinsic.TRAILING_ZEROS, high), 32));
      case "reverse" -> halves(call(Intrinsic.REVERSE_BITS, low), call(Intrinsic.REVERSE_BITS, high));
      case "reverseBytes" -> halves(reverseBytes(List.of(low)), reverseBytes(List.of(high)));
      case "highestOneBit" -> new Expr.Binary(BinaryOp.AND, x, new Expr.Binary(BinaryOp.USHR,
          new Expr.LongConst(Long.MIN_VALUE), longBits("numberOfLeadingZeros", args)));
      case "lowestOneBit" -> new Expr.Binary(BinaryOp.AND, x, new Expr.Unary(dev.kiln.processor.ir.UnaryOp.NEG, x));
      case "signum" -> new Expr.Convert(PrimType.INT, new Expr.Binary(BinaryOp.OR,
          new Expr.Binary(BinaryOp.SHR, x, new Expr.IntConst(63)),
          new Expr.Binary(BinaryOp.USHR, new Expr.Unary(dev.kiln.processor.ir.UnaryOp.NEG, x), new Expr.IntConst(63))));
      default -> throw new IllegalArgumentException("Long." + method);
    };
  }

  /** {@code (long) high << 32 | low & 0xffffffffL}. */
  private static Expr halves(Expr high, Expr low) {
    return new Expr.Binary(BinaryOp.OR, new Expr.Binary(BinaryOp.SHL, new Expr.Convert(PrimType.LONG, high),
        new Expr.IntConst(32)), toUnsignedLong(low));
  }

  /** {@code Double.doubleToLongBits}: the raw bits, NaN's canonical ones for every NaN. */
  static Expr doubleToLongBits(Expr d) {
    return new Expr.Conditional(call(Intrinsic.IS_NAN, d), new Expr.LongConst(Double.doubleToLongBits(Double.NaN)),
        call(Intrinsic.DOUBLE_TO_RAW_LONG_BITS, d));
  }

  private static Expr call(Intrinsic function, Expr argument) {
    return new Expr.Call(function, List.of(argument));
  }

  private static Expr bits(Expr f) {
    return new Expr.Call(Intrinsic.FLOAT_TO_RAW_INT_BITS, List.of(f));
  }

  private static Expr fromBits(Expr i) {
    return new Expr.Call(Intrinsic.INT_BITS_TO_FLOAT, List.of(i));
  }

  private static Expr choose(Expr condition, int then, int otherwise) {
    return new Expr.Conditional(condition, new Expr.IntConst(then), new Expr.IntConst(otherwise));
  }

  private static Expr choose(Expr condition, int then, Expr otherwise) {
    return new Expr.Conditional(condition, new Expr.IntConst(then), otherwise);
  }

  private static Expr add(Expr x, int constant) {
    return new Expr.Binary(BinaryOp.ADD, x, new Expr.IntConst(constant));
  }

  private static Expr and(Expr x, int mask) {
    return new Expr.Binary(BinaryOp.AND, x, new Expr.IntConst(mask));
  }

  private static Expr or(Expr a, Expr b) {
    return new Expr.Binary(BinaryOp.OR, a, b);
  }

  private static Expr shl(Expr x, int distance) {
    return new Expr.Binary(BinaryOp.SHL, x, new Expr.IntConst(distance));
  }

  private static Expr ushr(Expr x, int distance) {
    return new Expr.Binary(BinaryOp.USHR, x, new Expr.IntConst(distance));
  }
}
