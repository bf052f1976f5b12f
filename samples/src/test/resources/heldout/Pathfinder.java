package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia pathfinder: one row of the dynamic program, each cell the wall plus the cheapest of three above. */
final class Pathfinder {
  static final double TOLERANCE = 0;
  static final int COLS = 3001;

  @Kernel
  static void dynproc(int[] wall, int[] src, int[] dst, int cols, int row) {
    int n = Gpu.globalId(0);
    if (n < cols) {
      int min = src[n];
      if (n > 0) {
        min = Math.min(min, src[n - 1]);
      }
      if (n < cols - 1) {
        min = Math.min(min, src[n + 1]);
      }
      dst[n] = wall[row * cols + n] + min;
    }
  }

  static final int dynprocGrid = COLS;

  static Object[] dynprocArgs(Random r) {
    int[] wall = new int[4 * COLS];
    int[] src = new int[COLS];
    for (int i = 0; i < wall.length; i++) {
      wall[i] = r.nextInt(10);
    }
    for (int i = 0; i < COLS; i++) {
      src[i] = r.nextInt(100);
    }
    return new Object[] {wall, src, new int[COLS], COLS, 2};
  }
}
