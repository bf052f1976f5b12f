package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Parboil mri-q: ComputeQ, the Q matrix of each voxel summed over the k-space samples. */
final class MriQ {
  static final double TOLERANCE = 2e-3;
  static final int NUM_K = 129;
  static final int NUM_X = 1001;
  static final float PI2 = 6.2831853071795864769f;

  @Kernel(workgroup = 256)
  static void computeQ(int numK, int numX, float[] kx, float[] ky, float[] kz, float[] phiMag, float[] x, float[] y,
      float[] z, float[] qr, float[] qi) {
    int t = Gpu.globalId(0);
    if (t >= numX) {
      return;
    }
    float sX = x[t];
    float sY = y[t];
    float sZ = z[t];
    float sQr = qr[t];
    float sQi = qi[t];
    for (int k = 0; k < numK; k++) {
      float expArg = PI2 * (kx[k] * sX + ky[k] * sY + kz[k] * sZ);
      float cosArg = Gpu.cos(expArg);
      float sinArg = Gpu.sin(expArg);
      sQr += phiMag[k] * cosArg;
      sQi += phiMag[k] * sinArg;
    }
    qr[t] = sQr;
    qi[t] = sQi;
  }

  static final int computeQGrid = NUM_X;

  static Object[] computeQArgs(Random r) {
    return new Object[] {NUM_K, NUM_X, small(r, NUM_K), small(r, NUM_K), small(r, NUM_K), small(r, NUM_K),
        small(r, NUM_X), small(r, NUM_X), small(r, NUM_X), new float[NUM_X], new float[NUM_X]};
  }

  private static float[] small(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 0.5f - 0.25f;
    }
    return values;
  }
}
