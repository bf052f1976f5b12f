package dev.kiln.processor.ir;

/** The primitive value types of the kernel language. */
public enum PrimType {
  BOOLEAN("boolean", 4),
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

  /** Java's binary numeric promotion of two numeric types. */
  public static PrimType promote(PrimType a, PrimType b) {
    if (a == DOUBLE || b == DOUBLE) {
      return DOUBLE;
    }
    if (a == FLOAT || b == FLOAT) {
      return FLOAT;
    }
    return a == LONG || b == LONG ? LONG : INT;
  }
}
