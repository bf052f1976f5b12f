package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llama.cpp, ggml-vulkan's mul_mat_vec.comp (float A and B): a workgroup computes NUM_ROWS rows of
 * D = A·B for NUM_COLS columns of B; each invocation keeps its partial sums in
 * temp[NUM_COLS][NUM_ROWS] over a strided share of the columns, then a tree in workgroup memory.
 */
final class MulMatVec {
  static final double TOLERANCE = 0;
  static final int BLOCK = 32;
  static final int NUM_ROWS = 2;
  static final int NUM_COLS = 2;
  static final int ROWS = 37;
  static final int NCOLS = 301;

  @Kernel(workgroup = BLOCK)
  static void mulMatVec(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b, float[] d, int ncols,
      int nrows) {
    float[] tmpsh = Gpu.sharedFloats(NUM_COLS * NUM_ROWS * BLOCK);
    int tid = Gpu.localId(0);
    int firstRow = Gpu.workgroupId(0) * NUM_ROWS;
    float[][] temp = new float[NUM_COLS][NUM_ROWS];
    for (int col = tid; col < ncols; col += BLOCK) {
      for (int j = 0; j < NUM_COLS; j++) {
        float bv = b[j * ncols + col];
        for (int n = 0; n < NUM_ROWS; n++) {
          if (firstRow + n < nrows) {
            temp[j][n] += a[(firstRow + n) * ncols + col] * bv;
          }
        }
      }
    }
    for (int j = 0; j < NUM_COLS; j++) {
      for (int n = 0; n < NUM_ROWS; n++) {
        tmpsh[(j * NUM_ROWS + n) * BLOCK + tid] = temp[j][n];
      }
    }
    Gpu.barrier();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (tid < s) {
        for (int k = 0; k < NUM_COLS * NUM_ROWS; k++) {
          tmpsh[k * BLOCK + tid] += tmpsh[k * BLOCK + tid + s];
        }
      }
      Gpu.barrier();
    }
    if (tid == 0) {
      for (int j = 0; j < NUM_COLS; j++) {
        for (int n = 0; n < NUM_ROWS; n++) {
          if (firstRow + n < nrows) {
            d[j * nrows + firstRow + n] = tmpsh[(j * NUM_ROWS + n) * BLOCK];
          }
        }
      }
    }
  }

  static final int mulMatVecGrid = (ROWS + NUM_ROWS - 1) / NUM_ROWS * BLOCK;

  static Object[] mulMatVecArgs(Random r) {
    return new Object[] {floats(r, ROWS * NCOLS), floats(r, NUM_COLS * NCOLS), new float[NUM_COLS * ROWS], NCOLS,
        ROWS};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
