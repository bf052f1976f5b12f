package dev.kiln.library;

/** The checks of the library's arguments: Java's exceptions, before anything runs. */
final class Shapes {
  private Shapes() {}

  /**
   * Checks a row-major {@code rows x cols} matrix held in {@code length} elements.
   *
   * @throws IllegalArgumentException for a negative count, or more elements than an array holds
   * @throws IndexOutOfBoundsException where the array is shorter than the matrix
   */
  static void matrix(String name, int length, int rows, int cols) {
    if (rows < 0 || cols < 0) {
      throw new IllegalArgumentException(name + ": " + rows + " rows x " + cols + " columns");
    }
    long elements = (long) rows * cols;
    if (elements > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          name + ": " + rows + " x " + cols + " elements do not fit in a Java array");
    }
    vector(name, length, (int) elements);
  }

  /**
   * Checks a matrix of {@code rows} rows of {@code rowLength} elements held in an array of {@code
   * length} from {@code offset} on, its rows {@code stride} apart.
   *
   * @throws IllegalArgumentException for a negative count or offset, or a stride shorter than a row
   *     (rows would overlap)
   * @throws IndexOutOfBoundsException where the array is shorter than the matrix
   */
  static void strided(String name, int length, int offset, int rows, int rowLength, int stride) {
    if (rows < 0 || rowLength < 0) {
      throw new IllegalArgumentException(name + ": " + rows + " rows x " + rowLength + " columns");
    }
    if (offset < 0 || stride < rowLength) {
      throw new IllegalArgumentException(
          name
              + ": offset "
              + offset
              + " and rows "
              + stride
              + " apart, for rows of "
              + rowLength
              + " (the offset may not be negative, nor rows overlap)");
    }
    long end = rows == 0 || rowLength == 0 ? 0 : offset + (long) (rows - 1) * stride + rowLength;
    if (end > length) {
      throw new IndexOutOfBoundsException(
          name + " holds " + length + " elements, and " + end + " are needed");
    }
  }

  /**
   * Checks that an array of {@code length} holds {@code needed} elements.
   *
   * @throws IndexOutOfBoundsException where it does not
   */
  static void vector(String name, int length, int needed) {
    if (length < needed) {
      throw new IndexOutOfBoundsException(
          name + " holds " + length + " elements, and " + needed + " are needed");
    }
  }

  /** The invocations that give each of {@code rows} rows one workgroup. */
  static int workgroupPerRow(int rows) {
    long invocations = (long) rows * WorkgroupFolds.SIZE;
    if (invocations > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          rows + " rows: at most " + Integer.MAX_VALUE / WorkgroupFolds.SIZE + " in one call");
    }
    return (int) invocations;
  }
}
