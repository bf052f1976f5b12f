package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Kernels that inline helpers of another class compiled with them ({@link ColorMath}). */
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
}
