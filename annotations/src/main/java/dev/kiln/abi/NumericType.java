package dev.kiln.abi;

/**
 * Element type of a device array or type of a scalar kernel parameter, as generated launchers
 * declare them. Byte, short, char and boolean are buffer elements only (a boolean is stored as one
 * byte, 1 or 0, as Java's arrays hold it).
 */
public enum NumericType {
  /** {@code int}, 4 bytes. */
  INT(Integer.BYTES),
  /** {@code float}, 4 bytes. */
  FLOAT(Float.BYTES),
  /** {@code long}, 8 bytes. */
  LONG(Long.BYTES),
  /** {@code double}, 8 bytes. */
  DOUBLE(Double.BYTES),
  /** {@code byte}, 1 byte. */
  BYTE(Byte.BYTES),
  /** {@code short}, 2 bytes. */
  SHORT(Short.BYTES),
  /** {@code char}, 2 bytes. */
  CHAR(Character.BYTES),
  /** {@code boolean}, 1 byte holding 1 or 0. */
  BOOLEAN(1);

  private final int bytes;

  NumericType(int bytes) {
    this.bytes = bytes;
  }

  /**
   * Size of one value in bytes.
   *
   * @return the size
   */
  public int bytes() {
    return bytes;
  }

  /**
   * A Java array of this element type, zeroed.
   *
   * @param length its length
   * @return the array ({@code int[]} for {@code INT}, and so on)
   */
  public Object newArray(int length) {
    return switch (this) {
      case INT -> new int[length];
      case FLOAT -> new float[length];
      case LONG -> new long[length];
      case DOUBLE -> new double[length];
      case BYTE -> new byte[length];
      case SHORT -> new short[length];
      case CHAR -> new char[length];
      case BOOLEAN -> new boolean[length];
    };
  }

  /**
   * The type of the Java array {@code array}, or an exception if Kiln has no such buffer type.
   *
   * @param array a Java array
   * @return its element type
   */
  public static NumericType ofArray(Object array) {
    return switch (array) {
      case float[] a -> FLOAT;
      case int[] a -> INT;
      case long[] a -> LONG;
      case double[] a -> DOUBLE;
      case byte[] a -> BYTE;
      case short[] a -> SHORT;
      case char[] a -> CHAR;
      case boolean[] a -> BOOLEAN;
      default ->
          throw new IllegalArgumentException(
              "not a Kiln buffer type: " + array.getClass().getSimpleName());
    };
  }

  /**
   * The length of the Java array {@code array}, or an exception if Kiln has no such buffer type.
   *
   * @param array a Java array
   * @return its length
   */
  public static int length(Object array) {
    return switch (array) {
      case float[] a -> a.length;
      case int[] a -> a.length;
      case long[] a -> a.length;
      case double[] a -> a.length;
      case byte[] a -> a.length;
      case short[] a -> a.length;
      case char[] a -> a.length;
      case boolean[] a -> a.length;
      default ->
          throw new IllegalArgumentException(
              "not a Kiln buffer type: " + array.getClass().getSimpleName());
    };
  }
}
