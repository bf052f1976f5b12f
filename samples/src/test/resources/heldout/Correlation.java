package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * PolyBench-ACC correlation: the column means, then each element centred and scaled by its
 * column's deviation (the reduce step, in two kernels that fuse: each touches its own element).
 */
final class Correlation {
  static final double TOLERANCE = 0;
  static final int M = 45;
  static final int N = 39;

  @Kernel(workgroup = 256)
  static void meanKernel(float[] mean, float[] data, float floatN, int m, int n) {
    int j = Gpu.globalId(0);
    if (j < m) {
      mean[j] = 0.0f;
      for (int i = 0; i < n; i++) {
        mean[j] += data[i * m + j];
      }
      mean[j] /= floatN;
    }
  }

  static final int meanKernelGrid = M;

  static Object[] meanKernelArgs(Random r) {
    return new Object[] {new float[M], floats(r, N * M), (float) N, M, N};
  }

  // expect normalize: fuses
  @Kernel(workgroup = {32, 8})
  @FuseGroup("normalize")
  static void center(float[] mean, float[] data, int m, int n) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < n) && (j < m)) {
      data[i * m + j] -= mean[j];
    }
  }

  static final int[] centerGrid = {M, N};

  static Object[] centerArgs(Random r) {
    return new Object[] {floats(r, M), floats(r, N * M), M, N};
  }

  @Kernel(workgroup = {32, 8})
  @FuseGroup("normalize")
  static void scale(float[] std, float[] data, int m, int n, float sqrtN) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < n) && (j < m)) {
      data[i * m + j] /= sqrtN * std[j];
    }
  }

  static final int[] scaleGrid = {M, N};

  static Object[] scaleArgs(Random r) {
    return new Object[] {positive(r, M), floats(r, N * M), M, N, 6.25f};
  }

  static final int[] normalizeGroupGrid = {M, N};

  static Object[] normalizeGroupArgs(Random r) {
    return new Object[] {floats(r, M), floats(r, N * M), M, N, positive(r, M), 6.25f};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }

  private static float[] positive(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = 0.5f + r.nextInt(16) / 8f;
    }
    return values;
  }
}
