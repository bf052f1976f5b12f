package dev.kiln.matrix;

/** The left factor of a multiply-add: a 16 x 16 tile of 16-bit values. */
public final class MatrixA {
  final Tile tile;

  MatrixA(Tile tile) {
    this.tile = tile;
  }

  /**
   * The component type its buffer held.
   *
   * @return the type
   */
  public MatrixElement element() {
    return tile.element();
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
