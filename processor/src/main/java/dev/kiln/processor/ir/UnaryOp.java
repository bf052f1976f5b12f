package dev.kiln.processor.ir;

/** Unary operators. */
public enum UnaryOp {
  /** Arithmetic negation of an int or float. */
  NEG,
  /** Bitwise complement of an int. */
  COMPLEMENT,
  /** Logical negation of a boolean. */
  NOT
}
