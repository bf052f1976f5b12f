package dev.kiln.processor.lower;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.UnaryOp;
import java.util.List;

/**
 * {@code Integer}, {@code Long} and the comparison methods that Kiln composes from other
 * operations, each exactly as its JDK implementation computes it. {@link Library} evaluates the
 * arguments once: a method here may use an argument several times.
 */
final class BitLibrary {
  private BitLibrary() {}

  /** {@code Integer.reverseBytes}. */
  static Expr reverseBytes(List<Expr> args) {
    Expr x = args.getFirst();
    return or(or(shl(x, 24), shl(and(x, 0xff00), 8)), or(and(ushr(x, 8), 0xff00), ushr(x, 24)));
  }

  /**
   * {@code Integer.compare}, {@code Long.compare}, and their {@code compareUnsigned} (on the
   * arguments plus MIN_VALUE).
   */
  static Expr compare(List<Expr> args, boolean unsigned) {
    Expr a = unsigned ? plusMinValue(args.get(0)) : args.get(0);
    Expr b = unsigned ? plusMinValue(args.get(1)) : args.get(1);
    return choose(
        new Expr.Binary(BinaryOp.LT, a, b), -1, choose(new Expr.Binary(BinaryOp.EQ, a, b), 0, 1));
  }

  /** {@code Integer.toUnsignedLong}. */
  static Expr toUnsignedLong(Expr x) {
    return new Expr.Binary(
        BinaryOp.AND, new Expr.Convert(PrimType.LONG, x), new Expr.LongConst(0xffffffffL));
  }

  /**
   * {@code Integer.divideUnsigned} ({@code DIV}) and {@code remainderUnsigned} ({@code REM}), in
   * long.
   */
  static Expr unsigned(BinaryOp op, List<Expr> args) {
    return new Expr.Convert(
        PrimType.INT,
        new Expr.Binary(op, toUnsignedLong(args.get(0)), toUnsignedLong(args.get(1))));
  }

  private static Expr plusMinValue(Expr x) {
    return new Expr.Binary(
        BinaryOp.ADD,
        x,
        x.type() == PrimType.LONG
            ? new Expr.LongConst(Long.MIN_VALUE)
            : new Expr.IntConst(Integer.MIN_VALUE));
  }

  /**
   * {@code Long.divideUnsigned} ({@code remainder} false) and {@code remainderUnsigned}, as the JDK
   * computes them (Hacker's Delight 9.3): a signed division of the halved dividend, corrected by
   * one; a divisor of 2^63 or more divides at most once.
   */
  static Expr longUnsigned(List<Expr> args, boolean remainder) {
    Expr n = args.get(0);
    Expr d = args.get(1);
    Local quotient = Local.fresh("quotient", PrimType.LONG);
    Local rest = Local.fresh("rest", PrimType.LONG);
    Expr q = new Expr.LocalGet(quotient);
    Expr r = new Expr.LocalGet(rest);
    Expr halved =
        new Expr.Binary(
            BinaryOp.SHL,
            new Expr.Binary(
                BinaryOp.DIV, new Expr.Binary(BinaryOp.USHR, n, new Expr.IntConst(1)), d),
            new Expr.IntConst(1));
    Expr notBelow = new Expr.Unary(UnaryOp.COMPLEMENT, new Expr.Binary(BinaryOp.SUB, r, d));
    Expr small =
        remainder
            ? new Expr.Binary(
                BinaryOp.SUB,
                r,
                new Expr.Binary(
                    BinaryOp.AND,
                    new Expr.Binary(BinaryOp.SHR, notBelow, new Expr.IntConst(63)),
                    d))
            : new Expr.Binary(
                BinaryOp.ADD,
                q,
                new Expr.Binary(
                    BinaryOp.USHR,
                    new Expr.Binary(BinaryOp.OR, r, notBelow),
                    new Expr.IntConst(63)));
    Expr once =
        new Expr.Binary(
            BinaryOp.AND,
            n,
            new Expr.Unary(UnaryOp.COMPLEMENT, new Expr.Binary(BinaryOp.SUB, n, d)));
    Expr large =
        remainder
            ? new Expr.Binary(
                BinaryOp.SUB,
                n,
                new Expr.Binary(
                    BinaryOp.AND, new Expr.Binary(BinaryOp.SHR, once, new Expr.IntConst(63)), d))
            : new Expr.Binary(BinaryOp.USHR, once, new Expr.IntConst(63));
    Expr divisorSmall = new Expr.Binary(BinaryOp.GE, d, new Expr.LongConst(0));
    return new Expr.Conditional(
        divisorSmall,
        new Expr.Let(
            quotient,
            halved,
            new Expr.Let(
                rest,
                new Expr.Binary(BinaryOp.SUB, n, new Expr.Binary(BinaryOp.MUL, q, d)),
                small)),
        large);
  }

  /** {@code Float.compare}: -0f before 0f, NaN after everything and equal to itself. */
  static Expr floatCompare(List<Expr> args) {
    return floatingCompare(args, x -> new Expr.Call(Intrinsic.FLOAT_TO_INT_BITS, List.of(x)));
  }

  /** {@code Double.compare}, as {@link #floatCompare}. */
  static Expr doubleCompare(List<Expr> args) {
    return floatingCompare(args, BitLibrary::doubleToLongBits);
  }

  /**
   * The JDK's comparison of floating values: the ordered tests, then their canonical bits compared.
   */
  private static Expr floatingCompare(
      List<Expr> args, java.util.function.UnaryOperator<Expr> canonicalBits) {
    Expr a = args.get(0);
    Expr b = args.get(1);
    return choose(
        new Expr.Binary(BinaryOp.LT, a, b),
        -1,
        choose(
            new Expr.Binary(BinaryOp.GT, a, b),
            1,
            compare(List.of(canonicalBits.apply(a), canonicalBits.apply(b)), false)));
  }

  /**
   * {@code Long.bitCount}, {@code numberOfLeadingZeros} and the like, from the int ones on the two
   * halves.
   */
  static Expr longBits(String method, List<Expr> args) {
    Expr x = args.getFirst();
    Expr low = new Expr.Convert(PrimType.INT, x);
    Expr high =
        new Expr.Convert(PrimType.INT, new Expr.Binary(BinaryOp.USHR, x, new Expr.IntConst(32)));
    return switch (method) {
      case "bitCount" ->
          new Expr.Binary(
              BinaryOp.ADD, call(Intrinsic.BIT_COUNT, low), call(Intrinsic.BIT_COUNT, high));
      case "numberOfLeadingZeros" ->
          new Expr.Conditional(
              new Expr.Binary(BinaryOp.NE, high, new Expr.IntConst(0)),
              call(Intrinsic.LEADING_ZEROS, high),
              add(call(Intrinsic.LEADING_ZEROS, low), 32));
      case "numberOfTrailingZeros" ->
          new Expr.Conditional(
              new Expr.Binary(BinaryOp.NE, low, new Expr.IntConst(0)),
              call(Intrinsic.TRAILING_ZEROS, low),
              add(call(Intrinsic.TRAILING_ZEROS, high), 32));
      case "reverse" ->
          halves(call(Intrinsic.REVERSE_BITS, low), call(Intrinsic.REVERSE_BITS, high));
      case "reverseBytes" -> halves(reverseBytes(List.of(low)), reverseBytes(List.of(high)));
      case "highestOneBit" ->
          new Expr.Binary(
              BinaryOp.AND,
              x,
              new Expr.Binary(
                  BinaryOp.USHR,
                  new Expr.LongConst(Long.MIN_VALUE),
                  longBits("numberOfLeadingZeros", args)));
      case "lowestOneBit" -> new Expr.Binary(BinaryOp.AND, x, new Expr.Unary(UnaryOp.NEG, x));
      case "signum" ->
          new Expr.Convert(
              PrimType.INT,
              new Expr.Binary(
                  BinaryOp.OR,
                  new Expr.Binary(BinaryOp.SHR, x, new Expr.IntConst(63)),
                  new Expr.Binary(
                      BinaryOp.USHR, new Expr.Unary(UnaryOp.NEG, x), new Expr.IntConst(63))));
      default -> throw new IllegalArgumentException("Long." + method);
    };
  }

  /** {@code (long) high << 32 | low & 0xffffffffL}. */
  private static Expr halves(Expr high, Expr low) {
    return new Expr.Binary(
        BinaryOp.OR,
        new Expr.Binary(BinaryOp.SHL, new Expr.Convert(PrimType.LONG, high), new Expr.IntConst(32)),
        toUnsignedLong(low));
  }

  /** {@code Double.doubleToLongBits}: the raw bits, NaN's canonical ones for every NaN. */
  static Expr doubleToLongBits(Expr d) {
    return new Expr.Conditional(
        call(Intrinsic.IS_NAN, d),
        new Expr.LongConst(Double.doubleToLongBits(Double.NaN)),
        call(Intrinsic.DOUBLE_TO_RAW_LONG_BITS, d));
  }

  private static Expr call(Intrinsic function, Expr argument) {
    return new Expr.Call(function, List.of(argument));
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
