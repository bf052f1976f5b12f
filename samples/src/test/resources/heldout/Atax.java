package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** PolyBench-ACC atax: tmp = A x, then y = A^T tmp; the second reads every element of tmp. */
final class Atax {
  static final double TOLERANCE = 0;
  static final int NX = 61;
  static final int NY = 47;

  // expect atax: kiln.fusion.aliasing
  @Kernel(workgroup = 256)
  @FuseGroup("atax")
  static void atax1(float[] a, float[] x, float[] tmp, int nx, int ny) {
    int i = Gpu.globalId(0);
    if (i < nx) {
      tmp[i] = 0;
      for (int j = 0; j < ny; j++) {
        tmp[i] += a[i * ny + j] * x[j];
      }
    }
  }

  static final int atax1Grid = NX;

  static Object[] atax1Args(Random r) {
    return new Object[] {floats(r, NX * NY), floats(r, NY), new float[NX], NX, NY};
  }

  @Kernel(workgroup = 256)
  @FuseGroup("atax")
  static void atax2(float[] a, float[] y, float[] tmp, int nx, int ny) {
    int j = Gpu.globalId(0);
    if (j < ny) {
      y[j] = 0;
      for (int i = 0; i < nx; i++) {
        y[j] += a[i * ny + j] * tmp[i];
      }
    }
  }

  static final int atax2Grid = NY;

  static Object[] atax2Args(Random r) {
    return new Object[] {floats(r, NX * NY), new float[NY], floats(r, NX), NX, NY};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(64) / 8f;
    }
    return values;
  }
}
