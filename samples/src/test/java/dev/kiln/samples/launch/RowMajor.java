package dev.kiln.samples.launch;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * A 2-D launch whose invocations each update their own element of a row-major output over an inner
 * loop (gemm's {@code C = beta * C + A * B}). Kiln proves {@code row * columns + col} each
 * invocation's own under {@code col < columns}, so the updates compile without kiln.race.update;
 * the module carries the bounds that proof needs (columns × grid height ≤ 2^32, a grid one layer
 * deep), which {@code FusionTest} checks are enforced. {@code headRows} finds its row from the
 * digits of the global id, as llm.c's attention softmax does, and is proven the same way ({@code
 * DigitRowsTest}).
 */
final class RowMajor {
  private RowMajor() {}

  @Kernel(workgroup = {16, 16})
  static void gemm(int rows, int columns, int inner, float[] a, float[] b, float[] c, float beta) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row < rows && col < columns) {
      c[row * columns + col] *= beta;
      for (int k = 0; k < inner; k++) {
        c[row * columns + col] += a[row * inner + k] * b[k * columns + col];
      }
    }
  }

  /** Scales each (batch, head, query) row of {@code att} ({@code t} keys) by its own factor. */
  @Kernel(workgroup = {32})
  static void headRows(float[] att, float[] factors, int b, int t, int nh) {
    int idx = Gpu.globalId(0);
    if (idx < b * t * nh) {
      int h = idx % nh;
      int tq = (idx / nh) % t;
      int bIndex = idx / (nh * t);
      int row = bIndex * nh * t * t + h * t * t + tq * t;
      for (int key = 0; key < t; key++) {
        att[row + key] *= factors[idx];
      }
    }
  }
}
