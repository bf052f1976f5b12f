package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * PolyBench-ACC fdtd-2d: one time step of three kernels. ey from hz's row above, ex from hz's
 * column to the left, hz from ex and ey to the right and below: each reads what another wrote at
 * other invocations' elements.
 */
final class Fdtd2d {
  static final double TOLERANCE = 0;
  static final int NX = 33;
  static final int NY = 41;

  // expect fdtd: kiln.fusion.aliasing
  @Kernel(workgroup = {32, 8})
  @FuseGroup("fdtd")
  static void fdtdStep1(float[] fict, float[] ex, float[] ey, float[] hz, int t, int nx, int ny) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < nx) && (j < ny)) {
      if (i == 0) {
        ey[i * ny + j] = fict[t];
      } else {
        ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
      }
    }
  }

  static final int[] fdtdStep1Grid = {NY, NX};

  static Object[] fdtdStep1Args(Random r) {
    return new Object[] {floats(r, 10), floats(r, NX * NY), floats(r, NX * NY), floats(r, NX * NY), 3, NX, NY};
  }

  @Kernel(workgroup = {32, 8})
  @FuseGroup("fdtd")
  static void fdtdStep2(float[] ex, float[] ey, float[] hz, int nx, int ny) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < nx) && (j < ny) && (j > 0)) {
      ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
    }
  }

  static final int[] fdtdStep2Grid = {NY, NX};

  static Object[] fdtdStep2Args(Random r) {
    return new Object[] {floats(r, NX * NY), floats(r, NX * NY), floats(r, NX * NY), NX, NY};
  }

  @Kernel(workgroup = {32, 8})
  @FuseGroup("fdtd")
  static void fdtdStep3(float[] ex, float[] ey, float[] hz, int nx, int ny) {
    int j = Gpu.globalId(0);
    int i = Gpu.globalId(1);
    if ((i < (nx - 1)) && (j < (ny - 1))) {
      hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j]
          - ey[i * ny + j]);
    }
  }

  static final int[] fdtdStep3Grid = {NY, NX};

  static Object[] fdtdStep3Args(Random r) {
    return new Object[] {floats(r, NX * NY), floats(r, NX * NY), floats(r, NX * NY), NX, NY};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }
}
