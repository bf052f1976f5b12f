package dev.kiln.processor.lower;

import com.sun.source.tree.Tree;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;

/**
 * Java's binary promotions and primitive conversions, written as IR: what every lowering of
 * arithmetic builds.
 */
final class JavaArithmetic {
  private JavaArithmetic() {}

  /** {@code left op right} with Java's promotions; {@code type} is javac's type of the result. */
  static Expr binary(BinaryOp op, Expr left, Expr right, PrimType resultType) {
    PrimType type =
        resultType.promoted(); // byte, short and char compute as int; an assignment narrows after
    return switch (op) {
      case SHL, SHR, USHR -> new Expr.Binary(op, convert(left, type), convert(right, PrimType.INT));
      case EQ, NE, LT, LE, GT, GE -> {
        PrimType operands =
            left.type() == PrimType.BOOLEAN
                ? PrimType.BOOLEAN
                : PrimType.promote(left.type(), right.type());
        if (operands == PrimType.LONG && intAgainstIntSizedLong(left, right)) {
          // the same result compared as ints; lavapipe folds an int widened and compared with a
          // long constant wrongly
          yield new Expr.Binary(op, convert(left, PrimType.INT), convert(right, PrimType.INT));
        }
        yield new Expr.Binary(op, convert(left, operands), convert(right, operands));
      }
      case ADD, SUB, MUL, DIV, REM, AND, OR, XOR ->
          new Expr.Binary(op, convert(left, type), convert(right, type));
    };
  }

  /** Whether one side is an int and the other a long constant in int's range (either order). */
  private static boolean intAgainstIntSizedLong(Expr left, Expr right) {
    return left.type() == PrimType.INT && fitsInt(right)
        || right.type() == PrimType.INT && fitsInt(left);
  }

  private static boolean fitsInt(Expr value) {
    return value instanceof Expr.LongConst(long constant) && constant == (int) constant;
  }

  /** {@code value} converted to {@code type}; a constant is converted here, with Java's rules. */
  static Expr convert(Expr value, PrimType type) {
    if (value.type() == type) {
      return value;
    }
    Object constant =
        switch (value) {
          case Expr.IntConst c -> c.value();
          case Expr.LongConst c -> c.value();
          case Expr.FloatConst c -> c.value();
          case Expr.DoubleConst c -> c.value();
          default -> null;
        };
    if (constant == null) {
      return new Expr.Convert(type, value);
    }
    Number number = (Number) constant; // Number's conversions are Java's casts
    int asInt =
        number instanceof Float || number instanceof Double
            ? (int) number.doubleValue()
            : number.intValue();
    return switch (type) {
      case INT -> new Expr.IntConst(asInt);
      case BYTE -> new Expr.IntConst((byte) asInt);
      case SHORT -> new Expr.IntConst((short) asInt);
      case CHAR -> new Expr.IntConst((char) asInt);
      case LONG ->
          new Expr.LongConst(
              number instanceof Float || number instanceof Double
                  ? (long) number.doubleValue()
                  : number.longValue());
      case FLOAT -> new Expr.FloatConst(number.floatValue());
      case DOUBLE -> new Expr.DoubleConst(number.doubleValue());
      case BOOLEAN -> throw new IllegalArgumentException("no conversion to boolean");
    };
  }

  /**
   * {@code current op value} for the compound assignment {@code kind} ({@code +=} …) of a variable
   * of {@code type}, before the narrowing back to it: shifts keep the variable's type, other
   * operators promote both sides (JLS 15.26.2).
   */
  static Expr compound(Tree.Kind kind, Expr current, Expr value, PrimType type) {
    BinaryOp op = BinaryOps.of(kind).orElseThrow();
    PrimType operands =
        switch (op) {
          case SHL, SHR, USHR -> type.promoted();
          default -> type == PrimType.BOOLEAN ? type : PrimType.promote(type, value.type());
        };
    return binary(op, current, value, operands);
  }
}
