package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC gesummv: y = alpha A x + beta B x. */
final class Gesummv {
  static final double TOLERANCE = 0;
  static final int N = 97;

  @Kernel(workgroup = 256)
  static void gesummv(float[] a, float[] b, float[] x, float[] y, float[] tmp, int n, float alpha, float beta) {
    int i = Gpu.globalId(0);
    if (i < n) {
      tmp[i] = 0;
      y[i] = 0;
      for (int j = 0; j < n; j++) {
        tmp[i] += a[i * n + j] * x[j];
        y[i] += b[i * n + j] * x[j];
      }
      y[i] = alpha * tmp[i] + beta * y[i];
    }
  }

  static final int gesummvGrid = N;

  static Object[] gesummvArgs(Random r) {
    return new Object[] {floats(r, N * N), floats(r, N * N), floats(r, N), new float[N], new float[N], N, 0.5f, 1.5f};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }
}
