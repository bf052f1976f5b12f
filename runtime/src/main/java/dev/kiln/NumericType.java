package dev.kiln;

/** Element type of a device array or type of a scalar kernel parameter. */
public enum NumericType {
  INT(Integer.BYTES),
  FLOAT(Float.BYTES),
  LONG(Long.BYTES),
  DOUBLE(Double.BYTES);

  private final int bytes;

  NumericType(int bytes) {
    this.bytes = bytes;
  }

  /** Size of one value in bytes. */
  public int bytes() {
    return bytes;
  }

  /** The type of the Java array {@code array}, or an exception if Kiln has no such buffer type. */
  public static NumericType ofArray(Object array) {
    return switch (array) {
      case float[] a -> FLOAT;
      case int[] a -> INT;
      case long[] a -> LONG;
      case double[] a -> DOUBLE;
      default -> throw new IllegalArgumentException("not a Kiln buffer type: " + array.getClass().getSimpleName());
    };
  }

  static int length(Object array) {
    return switch (array) {
      case float[] a -> a.length;
      case int[] a -> a.length;
      case long[] a -> a.length;
      case double[] a -> a.length;
      default -> throw new IllegalArgumentException("not a Kiln buffer type: " + array.getClass().getSimpleName());
    };
  }
}
