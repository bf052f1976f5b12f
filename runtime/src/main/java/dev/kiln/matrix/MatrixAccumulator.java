package dev.kiln.matrix;

/** The accumulator and result of a multiply-add: a 16 x 16 tile of floats. */
public final class MatrixAccumulator {
  final Tile tile;

  MatrixAccumulator(Tile tile) {
    this.tile = tile;
  }

  /**
   * Element ({@code row}, {@code column}), for tests and debugging on the CPU backend.
   *
   * @param row 0 to 15
   * @param column 0 to 15
   * @return its value
   */
  public float get(int row, int column) {
    return tile.get(row, column);
  }
}
