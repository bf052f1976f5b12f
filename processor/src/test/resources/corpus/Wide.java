package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** long and double: operators, conversions with Java's rules, library calls. */
public final class Wide {
  static final long MASK = 0xff00ff00ff00ff00L;

  @Kernel
  static void longs(long[] a, long[] b, int[] shifts, long[] out, long scale) {
    int i = Gpu.globalId(0);
    int n = a.length;
    if (i >= n) {
      return;
    }
    long x = a[i];
    long y = b[i];
    int s = shifts[i];
    out[i] = x + y * scale - (x / (y | 1)) + x % 7;
    out[n + i] = (x << s) ^ (y >> s) ^ (x >>> (s + 64)) ^ (x << 65);
    out[2 * n + i] = x / -1L + Long.MIN_VALUE / (y == 0 ? -1 : 1);
    out[3 * n + i] = (x & MASK | ~y) + Math.max(x, y) - Math.min(x, y) + Math.abs(y);
    out[4 * n + i] = (long) (int) x + (int) (y >>> 3) + (x < y ? 1 : 0) + (x == y ? 2 : 0);
    out[5 * n + i] = (long) (float) x + (long) (double) y;
    long acc = 1;
    for (int k = 0; k < (s & 15); k++) {
      acc *= x | 1;
      acc++;
    }
    out[6 * n + i] = acc;
  }

  @Kernel
  static void doubles(double[] a, double[] b, float[] f, double[] out, long[] bits, double scale) {
    int i = Gpu.globalId(0);
    int n = a.length;
    if (i >= n) {
      return;
    }
    double x = a[i];
    double y = b[i];
    out[i] = x * scale + y - x * y;
    out[n + i] = x / y;
    out[2 * n + i] = x % y;
    out[3 * n + i] = Math.min(x, y) + Math.max(x, -0.0) + Math.abs(y) + Math.signum(x);
    out[4 * n + i] = Math.floor(x) + Math.ceil(y) + f[i] + (double) (f[i] * 3f);
    out[5 * n + i] = Math.sqrt(Math.abs(x));
    out[6 * n + i] = (float) x + (float) (y / 7);
    bits[i] = (long) x + (long) (y * 1e30) + (int) (x * 1e12) + (long) f[i];
    bits[n + i] = x < y ? 1 : x == y ? 2 : x != x ? 3 : 4;
  }
}
