package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llama.cpp, ggml-vulkan's rope_norm.comp: rotary position embedding, each invocation rotating one
 * pair of a row by its position's angle; the row is the y id, on a one-dimensional workgroup.
 */
final class Rope {
  static final double TOLERANCE = 1e-4;
  static final int ROWS = 13;
  static final int NCOLS = 96;

  @Kernel(workgroup = {64})
  static void rope(@Buffer(Access.READ) float[] x, @Buffer(Access.READ) int[] pos, float[] dst, int ncols, int nrows,
      float freqBase) {
    int i0 = 2 * Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (i0 >= ncols || row >= nrows) {
      return;
    }
    float theta = pos[row] * Gpu.pow(freqBase, -(float) i0 / ncols);
    float cosTheta = Gpu.cos(theta);
    float sinTheta = Gpu.sin(theta);
    float x0 = x[row * ncols + i0];
    float x1 = x[row * ncols + i0 + 1];
    dst[row * ncols + i0] = x0 * cosTheta - x1 * sinTheta;
    dst[row * ncols + i0 + 1] = x0 * sinTheta + x1 * cosTheta;
  }

  static final int[] ropeGrid = {NCOLS / 2, ROWS};

  static Object[] ropeArgs(Random r) {
    int[] positions = new int[ROWS];
    for (int i = 0; i < ROWS; i++) {
      positions[i] = r.nextInt(8);
    }
    return new Object[] {floats(r, ROWS * NCOLS), positions, new float[ROWS * NCOLS], NCOLS, ROWS,
        10000f};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
