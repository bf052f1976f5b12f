package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Each operator on its own, so that a difference between devices names the operator. */
public final class ElementaryOps {
  static final int INT_OPS = 16;
  static final int FLOAT_OPS = 12;

  /** {@code out[k * n + i]} is operation k applied to {@code a[i]} and {@code b[i]}. */
  @Kernel
  static void intOps(int[] a, int[] b, int[] out, int shift) {
    int i = Gpu.globalId(0);
    int n = a.length;
    if (i < n) {
      int x = a[i];
      int y = b[i];
      out[i] = x + y;
      out[n + i] = x - y;
      out[2 * n + i] = x * y;
      out[3 * n + i] = x / (y == 0 ? 1 : y);
      out[4 * n + i] = x % (y == 0 ? 1 : y);
      out[5 * n + i] = x / 7;
      out[6 * n + i] = x % 7;
      out[7 * n + i] = x << shift;
      out[8 * n + i] = x >> shift;
      out[9 * n + i] = x >>> shift;
      out[10 * n + i] = x & y | ~x ^ y;
      out[11 * n + i] = x < y ? 1 : x == y ? 2 : 3;
      out[12 * n + i] = -x;
      out[13 * n + i] = x / -1 + x % -1;
      out[14 * n + i] = x <= y && y >= 0 || x > 5 ? 1 : 0;
      out[15 * n + i] = x != y ? x >= y ? 4 : 5 : 6;
    }
  }

  /** {@code out[k * n + i]} is operation k applied to {@code a[i]} and {@code b[i]}. */
  @Kernel
  static void floatOps(float[] a, float[] b, float[] out, int[] ints) {
    int i = Gpu.globalId(0);
    int n = a.length;
    if (i < n) {
      float x = a[i];
      float y = b[i];
      out[i] = x + y;
      out[n + i] = x - y;
      out[2 * n + i] = x * y;
      out[3 * n + i] = x / y;
      out[4 * n + i] = x % y;
      out[5 * n + i] = -x;
      out[6 * n + i] = x * y + x;
      out[7 * n + i] = x < y ? 1f : x == y ? 2f : 3f;
      out[8 * n + i] = x != x ? 1f : 0f;
      out[9 * n + i] = i;
      out[10 * n + i] = x / 3f;
      out[11 * n + i] = x % 5f;
      ints[i] = (int) x;
      ints[n + i] = (int) (x * 1e12f);
    }
  }
}
