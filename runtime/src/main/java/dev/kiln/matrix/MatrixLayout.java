package dev.kiln.matrix;

/**
 * How a tile lies in an array: element (row, column) at {@code offset + row * stride + column}
 * (row-major) or at {@code offset + column * stride + row} (column-major).
 */
public enum MatrixLayout {
  /** Rows lie one after another, {@code stride} elements apart. */
  ROW_MAJOR,
  /** Columns lie one after another, {@code stride} elements apart. */
  COLUMN_MAJOR;

  /** The index of element ({@code row}, {@code column}) of the tile at {@code offset}. */
  int index(int offset, int stride, int row, int column) {
    return this == ROW_MAJOR ? offset + row * stride + column : offset + column * stride + row;
  }
}
