package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC gemm: C = alpha * A * B + beta * C, one element per invocation. */
final class Gemm {
  static final double TOLERANCE = 0;
  static final int NI = 37;
  static final int NJ = 41;
  static final int NK = 29;

  @Kernel(workgroup = {32, 8})
  static void gemm(float[] a, float[] b, float[] c, int ni, int nj, int nk, float alpha, float beta) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < ni) && (j < nj)) {
      c[i * nj + j] *= beta;
      for (int k = 0; k < nk; k++) {
        c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
      }
    }
  }

  static final int[] gemmGrid = {NJ, NI};

  static Object[] gemmArgs(Random r) {
    return new Object[] {floats(r, NI * NK), floats(r, NK * NJ), floats(r, NI * NJ), NI, NJ, NK, 1.5f, 1.2f};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(100) / 16f;
    }
    return values;
  }
}
