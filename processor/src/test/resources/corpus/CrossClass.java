package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * Kernels that inline helpers of another class compiled with them ({@link ColorMath}), one of which
 * calls back into this class.
 */
public final class CrossClass {
  @Kernel
  static void toneMapped(float[] r, float[] g, float[] b, float[] out, float exposure) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < r.length && i < g.length && i < b.length) {
      float y = ColorMath.luminance(r[i], g[i], b[i]);
      float mapped = ColorMath.toneMap(y, exposure);
      ColorMath.store(out, i, mapped);
    }
  }

  /** A window of the input in a private array that another class's helper fills and sums. */
  @Kernel
  static void windowed(float[] in, float[] out, int taps) {
    int i = Gpu.globalId(0);
    if (i >= out.length || i >= in.length) {
      return;
    }
    float[] window = new float[4];
    ColorMath.fillWindow(window, in, i, taps);
    out[i] = ColorMath.sum(window) + ColorMath.toneMap(in[i], 2f);
  }

  /** Called by {@link ColorMath#fillWindow}. */
  static float weight(int k) {
    return 1f / (k + 1);
  }
}
