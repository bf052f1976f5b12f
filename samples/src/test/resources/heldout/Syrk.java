package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC syrk: C = alpha A A^T + beta C. */
final class Syrk {
  static final double TOLERANCE = 0;
  static final int N = 43;
  static final int M = 37;

  @Kernel(workgroup = {32, 8})
  static void syrk(float[] a, float[] c, int n, int m, float alpha, float beta) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < n) && (j < n)) {
      c[i * n + j] *= beta;
      for (int k = 0; k < m; k++) {
        c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
      }
    }
  }

  static final int[] syrkGrid = {N, N};

  static Object[] syrkArgs(Random r) {
    return new Object[] {floats(r, N * M), floats(r, N * N), N, M, 1.5f, 1.2f};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }
}
