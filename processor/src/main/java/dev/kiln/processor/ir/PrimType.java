package dev.kiln.processor.ir;

/** The primitive value types of the kernel language. */
public enum PrimType {
  BOOLEAN("boolean"),
  INT("int"),
  FLOAT("float");

  private final String javaName;

  PrimType(String javaName) {
    this.javaName = javaName;
  }

  /** The Java keyword for this type. */
  public String javaName() {
    return javaName;
  }

  /** Java's binary numeric promotion of two numeric types. */
  public static PrimType promote(PrimType a, PrimType b) {
    return a == FLOAT || b == FLOAT ? FLOAT : INT;
  }
}
