package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * Rounding to integers, abs and signum of floats and doubles, which Kiln computes from the bits
 * because drivers' own instructions differ (lavapipe's RoundEven gave -3.0 for Math.rint(-3.5) on
 * some hosts).
 */
public final class Rounding {
  @Kernel
  static void roundings(float[] f, double[] d, float[] fo, int[] io, double[] dout, long[] lo) {
    int i = Gpu.globalId(0);
    if (i < f.length) {
      float x = f[i];
      fo[4 * i] = Math.abs(x);
      fo[4 * i + 1] = Math.signum(x);
      fo[4 * i + 2] = Gpu.floor(x);
      fo[4 * i + 3] = Gpu.ceil(x);
      io[i] = Math.round(x);
      double y = d[i];
      dout[5 * i] = Math.floor(y);
      dout[5 * i + 1] = Math.ceil(y);
      dout[5 * i + 2] = Math.rint(y);
      dout[5 * i + 3] = Math.abs(y);
      dout[5 * i + 4] = Math.signum(y);
      lo[i] = Math.round(y);
    }
  }
}
