package dev.kiln.matrix;

/**
 * The values of a 16 x 16 tile, row by row, as floats (a 16-bit value is exact in a float), and the
 * component type they came from (null for an accumulator's floats). Immutable.
 */
record Tile(MatrixElement element, float[] values) {
  static final int SIDE = dev.kiln.abi.LaunchAbi.MATRIX_SIDE;

  float get(int row, int column) {
    java.util.Objects.checkIndex(row, SIDE);
    java.util.Objects.checkIndex(column, SIDE);
    return values[row * SIDE + column];
  }
}
