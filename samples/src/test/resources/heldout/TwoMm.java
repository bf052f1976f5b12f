package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC 2mm: tmp = alpha A B, then D = beta D + tmp C; the second reads whole rows of tmp. */
final class TwoMm {
  static final double TOLERANCE = 0;
  static final int NI = 23;
  static final int NJ = 27;
  static final int NK = 19;
  static final int NL = 31;

  // expect twoMm: kiln.fusion.aliasing
  @Kernel(workgroup = {32, 8})
  @FuseGroup("twoMm")
  static void mm2Kernel1(float[] tmp, float[] a, float[] b, int ni, int nj, int nk, float alpha) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < ni) && (j < nj)) {
      tmp[i * nj + j] = 0;
      for (int k = 0; k < nk; k++) {
        tmp[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
      }
    }
  }

  static final int[] mm2Kernel1Grid = {NJ, NI};

  static Object[] mm2Kernel1Args(Random r) {
    return new Object[] {new float[NI * NJ], floats(r, NI * NK), floats(r, NK * NJ), NI, NJ, NK, 1.5f};
  }

  @Kernel(workgroup = {32, 8})
  @FuseGroup("twoMm")
  static void mm2Kernel2(float[] tmp, float[] c, float[] d, int ni, int nj, int nl, float beta) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < ni) && (j < nl)) {
      d[i * nl + j] *= beta;
      for (int k = 0; k < nj; k++) {
        d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
      }
    }
  }

  static final int[] mm2Kernel2Grid = {NL, NI};

  static Object[] mm2Kernel2Args(Random r) {
    return new Object[] {floats(r, NI * NJ), floats(r, NJ * NL), floats(r, NI * NL), NI, NJ, NL, 1.2f};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }
}
