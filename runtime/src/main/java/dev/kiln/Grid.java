package dev.kiln;

/**
 * The invocations of a 2-D or 3-D launch: {@code x * y * z} of them, with {@code
 * Gpu.globalId(axis)} running over {@code 0 .. x-1}, {@code 0 .. y-1} and {@code 0 .. z-1}.
 *
 * @param x invocations along x
 * @param y invocations along y
 * @param z invocations along z
 */
public record Grid(int x, int y, int z) {
  /** Checks that no size is negative. */
  public Grid {
    if (x < 0 || y < 0 || z < 0) {
      throw new IllegalArgumentException(
          "grid sizes must not be negative: " + x + " x " + y + " x " + z);
    }
  }

  /**
   * A 2-D grid.
   *
   * @param x invocations along x
   * @param y invocations along y
   * @return the grid {@code x * y * 1}
   */
  public static Grid of(int x, int y) {
    return new Grid(x, y, 1);
  }

  /**
   * A 3-D grid.
   *
   * @param x invocations along x
   * @param y invocations along y
   * @param z invocations along z
   * @return the grid
   */
  public static Grid of(int x, int y, int z) {
    return new Grid(x, y, z);
  }

  /**
   * Size along {@code axis} (0, 1 or 2).
   *
   * @param axis 0, 1 or 2 (x, y or z)
   * @return the invocations along {@code axis}
   */
  public int size(int axis) {
    return switch (axis) {
      case 0 -> x;
      case 1 -> y;
      case 2 -> z;
      default -> throw new IllegalArgumentException("axis must be 0, 1 or 2, not " + axis);
    };
  }

  /**
   * Whether the grid has no invocations: a launch over it does nothing.
   *
   * @return whether a size is 0
   */
  public boolean isEmpty() {
    return x == 0 || y == 0 || z == 0;
  }

  /**
   * Workgroups along {@code axis} for a workgroup of {@code size} invocations along it.
   *
   * @param axis 0, 1 or 2 (x, y or z)
   * @param size the workgroup size along {@code axis}
   * @return the number of workgroups
   */
  public int workgroups(int axis, int size) {
    return Math.ceilDiv(size(axis), size);
  }
}
