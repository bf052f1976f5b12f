package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC jacobi-2d: B from A's 5-point stencil, then A = B; the copy writes what the stencil reads around. */
final class Jacobi2d {
  static final double TOLERANCE = 0;
  static final int N = 47;

  // expect jacobi: kiln.fusion.aliasing
  @Kernel(workgroup = {32, 8})
  @FuseGroup("jacobi")
  static void runJacobi2dKernel1(int n, float[] a, float[] b) {
    int i = Gpu.globalId(1);
    int j = Gpu.globalId(0);
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
      b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + (j - 1)] + a[i * n + (1 + j)] + a[(1 + i) * n + j]
          + a[(i - 1) * n + j]);
    }
  }

  static final int[] runJacobi2dKernel1Grid = {N, N};

  static Object[] runJacobi2dKernel1Args(Random r) {
    return new Object[] {N, floats(r, N * N), new float[N * N]};
  }

  @Kernel(workgroup = {32, 8})
  @FuseGroup("jacobi")
  static void runJacobi2dKernel2(int n, float[] a, float[] b) {
    int i = Gpu.globalId(1);
    int j = Gpu.globalId(0);
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
      a[i * n + j] = b[i * n + j];
    }
  }

  static final int[] runJacobi2dKernel2Grid = {N, N};

  static Object[] runJacobi2dKernel2Args(Random r) {
    return new Object[] {N, floats(r, N * N), floats(r, N * N)};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }
}
