package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

public final class Operators {
  static final int MASK = 0xff;

  @Kernel
  static void integers(int[] a, int[] b, int[] out, int shift) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      int x = a[i];
      int y = b[i];
      int r = x + y * 3 - (x / (y | 1)) + x % 7;
      r ^= x << shift;
      r += (y >> 3) + (y >>> shift) + (~x & MASK);
      boolean big = x > y && (y >= 0 || x <= -5);
      r += big ? 1 : -1;
      r += x == y ? 2 : 0;
      r -= x != y ? 3 : 0;
      r *= x < 0 ? Integer.MAX_VALUE : Integer.MIN_VALUE;
      out[i] = r;
    }
  }

  @Kernel
  static void floats(float[] a, int[] b, float[] out, int[] truncated, float scale) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      float x = a[i];
      float y = b[i];
      float r = x * scale - y / 3f + -x;
      r += (float) Math.PI;
      r %= 5f;
      r *= 2;
      scale = scale + 1f;
      boolean nan = r != r;
      out[i] = nan ? 0f : r + scale;
      truncated[i] = (int) (x * 1e10f);
      truncated[i] += (int) r;
      b[i]++;
    }
  }

  @Kernel(workgroup = {8, 1, 1})
  static void ids(int[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = Gpu.localId(0) + 10 * Gpu.workgroupId(0) + 1000 * Gpu.numWorkgroups(0) + Gpu.globalId(1) + Gpu.numWorkgroups(2);
    }
  }

  public static final class Nested {
    @Kernel
    static void fill(float[] out, float value) {
      int i = Gpu.globalId(0);
      if (i < out.length) {
        out[i] = value;
      }
    }
  }
}
