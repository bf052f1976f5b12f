package dev.kiln.processor.lower;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import java.util.List;
import java.util.function.Function;

/**
 * {@code Math} methods on floats and doubles that Kiln composes from exact operations, each exactly
 * as its JDK implementation computes it: the ones that read or build the bits ({@code copySign},
 * {@code getExponent}, {@code nextUp}, {@code nextDown}, {@code ulp}), {@code scalb}
 * (multiplications by powers of two that round once), and {@code fma} on floats (a double sum
 * rounded to odd, then to float). {@link Library} evaluates the arguments once: a method here may
 * use an argument several times.
 */
final class FloatingLibrary {
  private FloatingLibrary() {}

  /** The IEEE 754 layout of float or double, and the IR that reads and builds it. */
  record Format(
      PrimType type,
      PrimType bits,
      Intrinsic toBits,
      Intrinsic fromBits,
      int significand,
      int bias,
      double minValue) {
    static final Format FLOAT =
        new Format(
            PrimType.FLOAT,
            PrimType.INT,
            Intrinsic.FLOAT_TO_RAW_INT_BITS,
            Intrinsic.INT_BITS_TO_FLOAT,
            23,
            127,
            Float.MIN_VALUE);
    static final Format DOUBLE =
        new Format(
            PrimType.DOUBLE,
            PrimType.LONG,
            Intrinsic.DOUBLE_TO_RAW_LONG_BITS,
            Intrinsic.LONG_BITS_TO_DOUBLE,
            52,
            1023,
            Double.MIN_VALUE);

    Expr bitsOf(Expr x) {
      return new Expr.Call(toBits, List.of(x));
    }

    Expr fromBits(Expr bits) {
      return new Expr.Call(fromBits, List.of(bits));
    }

    /** An integer constant of the bits' type. */
    Expr integer(long value) {
      return bits == PrimType.INT ? new Expr.IntConst((int) value) : new Expr.LongConst(value);
    }

    /** A constant of the floating type. */
    Expr real(double value) {
      return type == PrimType.FLOAT
          ? new Expr.FloatConst((float) value)
          : new Expr.DoubleConst(value);
    }

    long signBit() {
      return bits == PrimType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
    }

    /**
     * {@code 2^exponent} for an int expression between the smallest and the largest normal
     * exponent.
     */
    Expr powerOfTwo(Expr exponent) {
      return fromBits(
          new Expr.Binary(
              BinaryOp.SHL, widened(add(exponent, bias)), new Expr.IntConst(significand)));
    }

    /** An int expression in the bits' type. */
    Expr widened(Expr value) {
      return bits == PrimType.INT ? value : new Expr.Convert(bits, value);
    }
  }

  /** {@code Math.copySign}: the magnitude of the first, the sign bit of the second. */
  static Function<List<Expr>, Expr> copySign(Format f) {
    return args ->
        f.fromBits(
            binary(
                BinaryOp.OR,
                binary(BinaryOp.AND, f.bitsOf(args.get(0)), f.integer(~f.signBit())),
                binary(BinaryOp.AND, f.bitsOf(args.get(1)), f.integer(f.signBit()))));
  }

  /**
   * {@code Math.getExponent}: the unbiased exponent; bias + 1 for NaN and infinities, -bias for 0
   * and subnormals.
   */
  static Function<List<Expr>, Expr> getExponent(Format f) {
    return args -> exponent(f, args.getFirst());
  }

  private static Expr exponent(Format f, Expr x) {
    Expr field =
        binary(
            BinaryOp.AND,
            binary(BinaryOp.USHR, f.bitsOf(x), new Expr.IntConst(f.significand())),
            f.integer(2L * f.bias() + 1));
    return add(f.bits() == PrimType.INT ? field : new Expr.Convert(PrimType.INT, field), -f.bias());
  }

  /**
   * {@code Math.nextUp} ({@code up}) or {@code nextDown}: both zeros step to the smallest value of
   * the direction's sign.
   */
  static Function<List<Expr>, Expr> next(Format f, boolean up) {
    return args -> {
      Expr x = args.getFirst();
      Expr stays =
          binary(
              BinaryOp.OR,
              new Expr.Call(Intrinsic.IS_NAN, List.of(x)),
              binary(
                  BinaryOp.EQ,
                  x,
                  f.real(up ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY)));
      Expr step =
          new Expr.Conditional(
              binary(BinaryOp.GT, x, f.real(0)), f.integer(up ? 1 : -1), f.integer(up ? -1 : 1));
      Expr next =
          new Expr.Conditional(
              binary(BinaryOp.EQ, x, f.real(0)),
              f.real(up ? f.minValue() : -f.minValue()),
              f.fromBits(binary(BinaryOp.ADD, f.bitsOf(x), step)));
      return new Expr.Conditional(stays, x, next);
    };
  }

  /** {@code Math.ulp}: the distance to the next value away from zero, made from the exponent. */
  static Function<List<Expr>, Expr> ulp(Format f) {
    return args -> {
      Expr x = args.getFirst();
      Local bound = Local.fresh("exponent", PrimType.INT);
      Expr exponent = new Expr.LocalGet(bound);
      Expr normal = f.powerOfTwo(add(exponent, -f.significand()));
      Expr tiny = f.fromBits(binary(BinaryOp.SHL, f.integer(1), add(exponent, f.bias() - 1)));
      Expr finite =
          new Expr.Conditional(
              binary(BinaryOp.GE, exponent, new Expr.IntConst(1 - f.bias() + f.significand())),
              normal,
              tiny);
      return new Expr.Let(
          bound,
          exponent(f, x),
          new Expr.Conditional(
              binary(BinaryOp.EQ, exponent, new Expr.IntConst(f.bias() + 1)),
              new Expr.Call(Intrinsic.ABS, List.of(x)),
              new Expr.Conditional(
                  binary(BinaryOp.EQ, exponent, new Expr.IntConst(-f.bias())),
                  f.real(f.minValue()),
                  finite)));
    };
  }

  /**
   * {@code Math.scalb(float, int)}: the scale clamped to ±278, where every result is already 0 or
   * infinite, and applied in double, where the product is exact; the conversion to float rounds
   * once.
   */
  static Expr scalbFloat(List<Expr> args) {
    Expr scale = clampInt(args.get(1), 278);
    Expr product =
        binary(
            BinaryOp.MUL,
            new Expr.Convert(PrimType.DOUBLE, args.get(0)),
            Format.DOUBLE.powerOfTwo(scale));
    return new Expr.Convert(PrimType.FLOAT, product);
  }

  /**
   * {@code Math.scalb(double, int)} as the JDK computes it: the scale clamped to ±2099, its
   * remainder by 512 applied first, then up to four steps of 2^±512. Every step is exact until one
   * leaves the normal range; that one rounds, and the next gives 0 or infinity exactly.
   */
  static Expr scalbDouble(List<Expr> args) {
    Local scale = Local.fresh("scale", PrimType.INT);
    Local remainder = Local.fresh("remainder", PrimType.INT);
    Expr n = new Expr.LocalGet(scale);
    Expr r = new Expr.LocalGet(remainder);
    Expr negative = binary(BinaryOp.LT, n, new Expr.IntConst(0));
    // the remainder by 512 with the scale's sign, branch-free (Hacker's Delight 10-2), as the JDK's
    Expr t =
        binary(BinaryOp.USHR, binary(BinaryOp.SHR, n, new Expr.IntConst(8)), new Expr.IntConst(23));
    Expr remainderValue =
        binary(
            BinaryOp.SUB,
            binary(BinaryOp.AND, binary(BinaryOp.ADD, n, t), new Expr.IntConst(511)),
            t);
    Local stepsLocal = Local.fresh("steps", PrimType.INT);
    Expr steps = new Expr.LocalGet(stepsLocal);
    Expr quotient = binary(BinaryOp.SHR, binary(BinaryOp.SUB, n, r), new Expr.IntConst(9));
    Expr result = binary(BinaryOp.MUL, args.get(0), Format.DOUBLE.powerOfTwo(r));
    for (int step = 1; step <= 4; step++) {
      Expr factor =
          new Expr.Conditional(
              binary(BinaryOp.GE, steps, new Expr.IntConst(step)),
              new Expr.Conditional(
                  negative, new Expr.DoubleConst(0x1p-512), new Expr.DoubleConst(0x1p512)),
              new Expr.DoubleConst(1.0));
      result = binary(BinaryOp.MUL, result, factor);
    }
    return new Expr.Let(
        scale,
        clampInt(args.get(1), 2099),
        new Expr.Let(
            remainder,
            remainderValue,
            new Expr.Let(stepsLocal, new Expr.Call(Intrinsic.ABS, List.of(quotient)), result)));
  }

  /**
   * {@code Math.fma(float, float, float)}, rounded once as Java demands: the product is exact in
   * double; the double sum is made round-to-odd from its exact error (TwoSum: an even last bit
   * moves one step toward the error), and a round-to-odd double, with more than twice float's
   * precision, rounds to float exactly as the exact sum does (Boldo and Melquiond, 2008).
   */
  static Expr fmaFloat(List<Expr> args) {
    Local p = Local.fresh("product", PrimType.DOUBLE);
    Local c = Local.fresh("addend", PrimType.DOUBLE);
    Local s = Local.fresh("sum", PrimType.DOUBLE);
    Local back = Local.fresh("back", PrimType.DOUBLE);
    Local error = Local.fresh("error", PrimType.DOUBLE);
    Local sumBits = Local.fresh("sumBits", PrimType.LONG);
    Expr pv = new Expr.LocalGet(p);
    Expr cv = new Expr.LocalGet(c);
    Expr sv = new Expr.LocalGet(s);
    Expr bv = new Expr.LocalGet(back);
    Expr ev = new Expr.LocalGet(error);
    Expr bits = new Expr.LocalGet(sumBits);
    Expr inexact =
        binary(
            BinaryOp.OR,
            binary(BinaryOp.LT, ev, new Expr.DoubleConst(0)),
            binary(
                BinaryOp.GT,
                ev,
                new Expr.DoubleConst(0))); // false for the NaN error of an infinite sum
    Expr even =
        binary(
            BinaryOp.EQ, binary(BinaryOp.AND, bits, new Expr.LongConst(1)), new Expr.LongConst(0));
    Expr opposite =
        binary(
            BinaryOp.LT,
            binary(BinaryOp.XOR, Format.DOUBLE.bitsOf(ev), bits),
            new Expr.LongConst(0));
    Expr odd =
        Format.DOUBLE.fromBits(
            binary(
                BinaryOp.ADD,
                bits,
                new Expr.Conditional(opposite, new Expr.LongConst(-1), new Expr.LongConst(1))));
    Expr rounded = new Expr.Conditional(binary(BinaryOp.AND, inexact, even), odd, sv);
    Expr twoSumError =
        binary(
            BinaryOp.ADD,
            binary(BinaryOp.SUB, pv, binary(BinaryOp.SUB, sv, bv)),
            binary(BinaryOp.SUB, cv, bv));
    return new Expr.Let(
        p,
        binary(
            BinaryOp.MUL,
            new Expr.Convert(PrimType.DOUBLE, args.get(0)),
            new Expr.Convert(PrimType.DOUBLE, args.get(1))),
        new Expr.Let(
            c,
            new Expr.Convert(PrimType.DOUBLE, args.get(2)),
            new Expr.Let(
                s,
                binary(BinaryOp.ADD, pv, cv),
                new Expr.Let(
                    back,
                    binary(BinaryOp.SUB, sv, pv),
                    new Expr.Let(
                        error,
                        twoSumError,
                        new Expr.Let(
                            sumBits,
                            Format.DOUBLE.bitsOf(sv),
                            new Expr.Convert(PrimType.FLOAT, rounded)))))));
  }

  /** {@code max(min(value, limit), -limit)} on ints. */
  private static Expr clampInt(Expr value, int limit) {
    return new Expr.Call(
        Intrinsic.MAX,
        List.of(
            new Expr.Call(Intrinsic.MIN, List.of(value, new Expr.IntConst(limit))),
            new Expr.IntConst(-limit)));
  }

  private static Expr binary(BinaryOp op, Expr left, Expr right) {
    return new Expr.Binary(op, left, right);
  }

  private static Expr add(Expr x, int constant) {
    return new Expr.Binary(BinaryOp.ADD, x, new Expr.IntConst(constant));
  }
}
