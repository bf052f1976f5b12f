package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC mvt: x1 += A y1 and x2 += A^T y2, two independent products: they fuse. */
final class Mvt {
  static final double TOLERANCE = 0;
  static final int N = 83;

  // expect mvt: fuses
  @Kernel(workgroup = 256)
  @FuseGroup("mvt")
  static void mvt1(float[] a, float[] x1, float[] y1, int n) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < n; j++) {
        x1[i] += a[i * n + j] * y1[j];
      }
    }
  }

  static final int mvt1Grid = N;

  static Object[] mvt1Args(Random r) {
    return new Object[] {floats(r, N * N), floats(r, N), floats(r, N), N};
  }

  @Kernel(workgroup = 256)
  @FuseGroup("mvt")
  static void mvt2(float[] a, float[] x2, float[] y2, int n) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < n; j++) {
        x2[i] += a[j * n + i] * y2[j];
      }
    }
  }

  static final int mvt2Grid = N;

  static Object[] mvt2Args(Random r) {
    return new Object[] {floats(r, N * N), floats(r, N), floats(r, N), N};
  }

  static final int mvtGroupGrid = N;

  static Object[] mvtGroupArgs(Random r) {
    return new Object[] {floats(r, N * N), floats(r, N), floats(r, N), N, floats(r, N), floats(r, N)};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }
}
