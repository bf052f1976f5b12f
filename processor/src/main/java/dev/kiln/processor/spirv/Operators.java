package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.PrimType;

/** Binary operators with Java's semantics on each operand type. */
final class Operators {
  private Operators() {}

  /**
   * {@code left op right}; {@code line} is where an integer division or remainder is, for its fault
   * (0: unknown).
   */
  static int binary(
      FunctionBuilder fn,
      MemoryAccess memory,
      BinaryOp op,
      PrimType operands,
      int left,
      int right,
      int line) {
    return switch (operands) {
      case INT, LONG -> integerOp(fn, memory, op, operands, left, right, line);
      case FLOAT, DOUBLE -> floatingOp(fn, op, operands, left, right);
      case BOOLEAN -> boolOp(fn, op, left, right);
      case BYTE, SHORT, CHAR ->
          throw new IllegalStateException(
              op + " on " + operands + ": the lowering promotes to int");
    };
  }

  private static int integerOp(
      FunctionBuilder w,
      MemoryAccess memory,
      BinaryOp op,
      PrimType operands,
      int a,
      int b,
      int line) {
    SpirvModule m = w.module();
    int type = w.typeOf(operands);
    int bool = m.typeBool();
    return switch (op) {
      case ADD -> w.op(SpvOpIAdd, type, a, b);
      case SUB -> w.op(SpvOpISub, type, a, b);
      case MUL -> w.op(SpvOpIMul, type, a, b);
      case DIV -> {
        // MIN_VALUE / -1 overflows in SPIR-V; Java defines it as MIN_VALUE, which is -a.
        int minusOne = w.op(SpvOpIEqual, bool, b, w.constant(operands, -1));
        int divisor = safeDivisor(w, memory, operands, b, minusOne, line);
        yield w.op(
            SpvOpSelect,
            type,
            minusOne,
            w.op(SpvOpSNegate, type, a),
            w.op(SpvOpSDiv, type, a, divisor));
      }
      case REM -> {
        // a - (a / b) * b: Java's remainder takes the dividend's sign. (NVIDIA's driver gives
        // OpSRem
        // the divisor's sign.) With b == -1 the divisor becomes 1 and the result 0, as in Java.
        int divisor =
            safeDivisor(
                w, memory, operands, b, w.op(SpvOpIEqual, bool, b, w.constant(operands, -1)), line);
        int quotient = w.op(SpvOpSDiv, type, a, divisor);
        yield w.op(SpvOpISub, type, a, w.op(SpvOpIMul, type, quotient, divisor));
      }
      // Java uses only the low five (int) or six (long) bits of a shift distance, an int.
      case SHL -> w.op(SpvOpShiftLeftLogical, type, a, distance(w, operands, b));
      case SHR -> w.op(SpvOpShiftRightArithmetic, type, a, distance(w, operands, b));
      case USHR -> w.op(SpvOpShiftRightLogical, type, a, distance(w, operands, b));
      case AND -> w.op(SpvOpBitwiseAnd, type, a, b);
      case OR -> w.op(SpvOpBitwiseOr, type, a, b);
      case XOR -> w.op(SpvOpBitwiseXor, type, a, b);
      case EQ -> w.op(SpvOpIEqual, bool, a, b);
      case NE -> w.op(SpvOpINotEqual, bool, a, b);
      case LT -> w.op(SpvOpSLessThan, bool, a, b);
      case LE -> w.op(SpvOpSLessThanEqual, bool, a, b);
      case GT -> w.op(SpvOpSGreaterThan, bool, a, b);
      case GE -> w.op(SpvOpSGreaterThanEqual, bool, a, b);
    };
  }

  private static int distance(FunctionBuilder w, PrimType operands, int distance) {
    SpirvModule m = w.module();
    return w.op(
        SpvOpBitwiseAnd, m.typeInt(), distance, m.constantInt(operands == PrimType.LONG ? 63 : 31));
  }

  /**
   * {@code b}, or 1 where it is -1 (handled by the caller) or 0 (reported as Java's
   * ArithmeticException, the quotient being meaningless).
   */
  private static int safeDivisor(
      FunctionBuilder w, MemoryAccess memory, PrimType operands, int b, int minusOne, int line) {
    SpirvModule m = w.module();
    int zero = w.zero(operands);
    memory.faults().divisionByZero(w.op(SpvOpIEqual, m.typeBool(), b, zero), line);
    int replace =
        w.op(SpvOpLogicalOr, m.typeBool(), minusOne, w.op(SpvOpIEqual, m.typeBool(), b, zero));
    return w.op(SpvOpSelect, w.typeOf(operands), replace, w.constant(operands, 1), b);
  }

  private static int floatingOp(FunctionBuilder w, BinaryOp op, PrimType operands, int a, int b) {
    int type = w.typeOf(operands);
    int bool = w.module().typeBool();
    return switch (op) {
      case ADD -> exact(w, SpvOpFAdd, type, a, b);
      case SUB -> exact(w, SpvOpFSub, type, a, b);
      case MUL -> exact(w, SpvOpFMul, type, a, b);
      case DIV ->
          operands == PrimType.FLOAT ? divideFloat(w, a, b) : exact(w, SpvOpFDiv, type, a, b);
      case REM -> FloatRemainder.emit(w, operands, a, b);
      case EQ -> w.op(SpvOpFOrdEqual, bool, a, b);
      case NE -> w.op(SpvOpFUnordNotEqual, bool, a, b); // NaN != NaN is true in Java
      case LT -> w.op(SpvOpFOrdLessThan, bool, a, b);
      case LE -> w.op(SpvOpFOrdLessThanEqual, bool, a, b);
      case GT -> w.op(SpvOpFOrdGreaterThan, bool, a, b);
      case GE -> w.op(SpvOpFOrdGreaterThanEqual, bool, a, b);
      case SHL, SHR, USHR, AND, OR, XOR -> throw new IllegalStateException(op + " on " + operands);
    };
  }

  /** A float operation that the driver may not fuse with its neighbours (no FMA contraction). */
  static int exact(FunctionBuilder w, int opcode, int type, int a, int b) {
    return w.exactOp(opcode, type, a, b);
  }

  /**
   * Java's correctly rounded float division. Vulkan allows OpFDiv 2.5 ULP of error (NVIDIA's is off
   * by one ULP at times), so the quotient is taken in double and rounded once to float: a double
   * quotient within a few double ULPs rounds to the correctly rounded float, since a quotient of
   * two floats never lies within 2^-49 (relative) of a rounding boundary without lying on one, and
   * never lies exactly halfway.
   */
  private static int divideFloat(FunctionBuilder w, int a, int b) {
    SpirvModule m = w.module();
    int dbl = m.typeDouble();
    int quotient =
        w.exactOp(
            SpvOpFDiv, dbl, w.exactOp(SpvOpFConvert, dbl, a), w.exactOp(SpvOpFConvert, dbl, b));
    return w.exactOp(SpvOpFConvert, m.typeFloat(), quotient);
  }

  private static int boolOp(FunctionBuilder w, BinaryOp op, int a, int b) {
    int bool = w.module().typeBool();
    return switch (op) {
      case AND -> w.op(SpvOpLogicalAnd, bool, a, b);
      case OR -> w.op(SpvOpLogicalOr, bool, a, b);
      case XOR, NE -> w.op(SpvOpLogicalNotEqual, bool, a, b);
      case EQ -> w.op(SpvOpLogicalEqual, bool, a, b);
      case ADD, SUB, MUL, DIV, REM, SHL, SHR, USHR, LT, LE, GT, GE ->
          throw new IllegalStateException(op + " on boolean");
    };
  }
}
