package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Parboil stencil: the 7-point 3-D Jacobi step, a 2-D launch walking z with a loop. */
final class Stencil3d {
  static final double TOLERANCE = 0;
  static final int NX = 19;
  static final int NY = 23;
  static final int NZ = 11;

  @Kernel(workgroup = {16, 8})
  static void naiveKernel(float c0, float c1, float[] a0, float[] anext, int nx, int ny, int nz) {
    int i = Gpu.globalId(0) + 1;
    int j = Gpu.globalId(1) + 1;
    if (i < nx - 1 && j < ny - 1) {
      for (int k = 1; k < nz - 1; k++) {
        anext[i + nx * (j + ny * k)] = (a0[i + nx * (j + ny * (k + 1))] + a0[i + nx * (j + ny * (k - 1))]
            + a0[i + nx * ((j + 1) + ny * k)] + a0[i + nx * ((j - 1) + ny * k)] + a0[(i + 1) + nx * (j + ny * k)]
            + a0[(i - 1) + nx * (j + ny * k)]) * c1 - a0[i + nx * (j + ny * k)] * c0;
      }
    }
  }

  static final int[] naiveKernelGrid = {NX - 2, NY - 2};

  static Object[] naiveKernelArgs(Random r) {
    float[] a0 = new float[NX * NY * NZ];
    for (int i = 0; i < a0.length; i++) {
      a0[i] = r.nextInt(64) / 8f;
    }
    return new Object[] {0.5f, 0.125f, a0, new float[NX * NY * NZ], NX, NY, NZ};
  }
}
