package dev.kiln.processor.ir;

/**
 * The primitive value types of the kernel language. {@code byte}, {@code short} and {@code char}
 * values are held as ints, sign- or zero-extended as Java's widening gives them, so that every
 * operation on them is the int one (Java promotes them before any arithmetic); only buffers store
 * them in 8 or 16 bits.
 */
public enum PrimType {
  BOOLEAN("boolean", 4),
  BYTE("byte", 1),
  SHORT("short", 2),
  CHAR("char", 2),
  INT("int", 4),
  LONG("long", 8),
  FLOAT("float", 4),
  DOUBLE("double", 8);

  private final String javaName;
  private final int bytes;

  PrimType(String javaName, int bytes) {
    this.javaName = javaName;
    this.bytes = bytes;
  }

  /** The Java keyword for this type. */
  public String javaName() {
    return javaName;
  }

  /** Size in buffers and push constants. */
  public int bytes() {
    return bytes;
  }

  public boolean isFloating() {
    return this == FLOAT || this == DOUBLE;
  }

  /** {@code byte}, {@code short} or {@code char}: an int value narrowed to 8 or 16 bits. */
  public boolean isNarrow() {
    return this == BYTE || this == SHORT || this == CHAR;
  }

  /** The type a value of this type computes in: int for a narrow type (JLS 5.6), else itself. */
  public PrimType promoted() {
    return isNarrow() ? INT : this;
  }

  /** Java's binary numeric promotion of two numeric types. */
  public static PrimType promote(PrimType a, PrimType b) {
    if (a == DOUBLE || b == DOUBLE) {
      return DOUBLE;
    }
    if (a == FLOAT || b == FLOAT) {
      return FLOAT;
    }
    return a == LONG || b == LONG ? LONG : INT; // int, and the narrow types promote to int
  }
}
