package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC 2DCONV: a 3 x 3 convolution of the interior. */
final class Convolution2d {
  static final double TOLERANCE = 0;
  static final int NI = 41;
  static final int NJ = 37;

  @Kernel(workgroup = {32, 8})
  static void convolution2d(int ni, int nj, float[] a, float[] b) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    float c11 = +0.2f;
    float c21 = +0.5f;
    float c31 = -0.8f;
    float c12 = -0.3f;
    float c22 = +0.6f;
    float c32 = -0.9f;
    float c13 = +0.4f;
    float c23 = +0.7f;
    float c33 = +0.10f;
    if ((i < ni - 1) && (j < nj - 1) && (i > 0) && (j > 0)) {
      b[i * nj + j] = c11 * a[(i - 1) * nj + (j - 1)] + c21 * a[(i - 1) * nj + (j + 0)] + c31 * a[(i - 1) * nj + (j + 1)]
          + c12 * a[(i + 0) * nj + (j - 1)] + c22 * a[(i + 0) * nj + (j + 0)] + c32 * a[(i + 0) * nj + (j + 1)]
          + c13 * a[(i + 1) * nj + (j - 1)] + c23 * a[(i + 1) * nj + (j + 0)] + c33 * a[(i + 1) * nj + (j + 1)];
    }
  }

  static final int[] convolution2dGrid = {NJ, NI};

  static Object[] convolution2dArgs(Random r) {
    float[] a = new float[NI * NJ];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextFloat();
    }
    return new Object[] {NI, NJ, a, new float[NI * NJ]};
  }
}
