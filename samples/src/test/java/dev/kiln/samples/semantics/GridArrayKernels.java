package dev.kiln.samples.semantics;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Private arrays of two and three dimensions, as ML kernels keep accumulators and register tiles
 * ({@link GridArraysTest}): a matrix-vector product's {@code temp[NUM_COLS][NUM_ROWS]}, a tile
 * passed to a helper, rows walked with for-each, and indices that fault.
 */
final class GridArrayKernels {
  static final int NUM_COLS = 4;
  static final int NUM_ROWS = 3;

  private GridArrayKernels() {}

  /**
   * {@code out[r] = Σ_c m[r][c]·x[c]} for {@code NUM_ROWS} rows per invocation, the partial sums
   * kept per column block in {@code temp[j][i]}, as llama.cpp's mul_mat_vec keeps them.
   */
  @Kernel(workgroup = {64})
  static void matVec(
      @Buffer(Access.READ) float[] m, @Buffer(Access.READ) float[] x, float[] out, int rows, int cols) {
    int first = Gpu.globalId(0) * NUM_ROWS;
    float[][] temp = new float[NUM_COLS][NUM_ROWS];
    for (int c = 0; c < cols; c++) {
      int j = c % NUM_COLS;
      for (int i = 0; i < NUM_ROWS; i++) {
        if (first + i < rows) {
          temp[j][i] += m[(first + i) * cols + c] * x[c];
        }
      }
    }
    for (int i = 0; i < temp[0].length; i++) {
      float sum = 0f;
      for (int j = 0; j < temp.length; j++) {
        sum += temp[j][i];
      }
      if (first + i < rows) {
        out[first + i] = sum;
      }
    }
  }

  /** A 2 x 2 x 3 register tile filled, then read through a helper and for-each over its rows. */
  @Kernel(workgroup = {32})
  static void tile(@Buffer(Access.READ) float[] in, float[] out) {
    int g = Gpu.globalId(0);
    if (g < out.length) {
      float[][][] t = new float[2][2][3];
      for (int a = 0; a < 2; a++) {
        for (int b = 0; b < 2; b++) {
          for (int c = 0; c < 3; c++) {
            t[a][b][c] = in[(g + a * 6 + b * 3 + c) % in.length] * (a + 1);
          }
        }
      }
      float s = corner(t, 1);
      for (float v : t[1][0]) {
        s += v * 0.5f;
      }
      t[0][1][2]++;
      t[1][1][0] -= s;
      out[g] = s + t[0][1][2] + t[1][1][0] + t.length + t[1].length + t[0][1].length;
    }
  }

  /** Reads a tile passed whole. */
  private static float corner(float[][][] t, int a) {
    return t[a][1][2] - t[0][0][0];
  }

  /** Indexes a 3 x 4 array at {@code (row, column)}: out of bounds as Java faults. */
  @Kernel
  static void at(int[] out, int row, int column) {
    int[][] t = new int[3][4];
    t[1][2] = 7;
    out[0] = t[row][column];
  }

  /**
   * Stores at {@code (row, column)} a value whose computation divides by {@code divisor}: Java
   * checks the row, evaluates the value, then checks the column.
   */
  @Kernel
  static void storeOrder(int[] out, int row, int column, int divisor) {
    int[][] t = new int[3][4];
    t[row][column] = 12 / divisor;
    out[0] = t[row][column];
  }

  /** The rows of a 3 x 5 array walked with for-each, each row's elements with for-each too. */
  @Kernel(workgroup = {32})
  static void rowsWalked(@Buffer(Access.READ) float[] in, float[] out) {
    int g = Gpu.globalId(0);
    if (g < out.length) {
      float[][] t = new float[3][5];
      for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 5; c++) {
          t[r][c] = in[(g + r * 5 + c) % in.length];
        }
      }
      float sum = 0f;
      int rows = 0;
      for (float[] row : t) {
        rows++;
        for (float v : row) {
          sum += v * rows;
        }
        row[0] = sum;
      }
      out[g] = sum + t[2][0] + t[1].length;
    }
  }
}
