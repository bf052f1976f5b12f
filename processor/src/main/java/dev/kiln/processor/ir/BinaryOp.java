package dev.kiln.processor.ir;

/** Binary operators; operands of one node always have the same type. */
public enum BinaryOp {
  ADD,
  SUB,
  MUL,
  DIV,
  REM,
  SHL,
  SHR,
  USHR,
  AND,
  OR,
  XOR,
  EQ,
  NE,
  LT,
  LE,
  GT,
  GE;

  /** Whether the result is a {@code boolean} whatever the operand type. */
  public boolean isComparison() {
    return switch (this) {
      case EQ, NE, LT, LE, GT, GE -> true;
      case ADD, SUB, MUL, DIV, REM, SHL, SHR, USHR, AND, OR, XOR -> false;
    };
  }
}
