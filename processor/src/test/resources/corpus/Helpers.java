package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Static helper methods of the kernel's class, inlined where they are called. */
public final class Helpers {
  static float square(float x) {
    return x * x;
  }

  static int index(int x, int y, int width) {
    return y * width + x;
  }

  /** A helper with statements and an array parameter: {@code a[i]}, clamped to the array. */
  static float clampedAt(float[] a, int i) {
    if (i < 0) {
      return a[0];
    }
    if (i >= a.length) {
      return a[a.length - 1];
    }
    return a[i];
  }

  /** A void helper that writes through its array parameter and may return early. */
  static void accumulate(float[] out, int i, float value) {
    if (value != value) {
      return;
    }
    out[i] += value;
  }

  /** Returns from inside nested loops, and assigns its parameter. */
  static int steps(int n) {
    int steps = 0;
    while (n != 1 && steps < 200) {
      if ((n & 1) == 0) {
        n >>>= 1;
        continue;
      }
      for (int k = 0; k < 3; k++) {
        if (n % 7 == k) {
          return -steps;
        }
      }
      n = 3 * n + 1;
      steps++;
    }
    return steps;
  }

  @Kernel
  static void useHelpers(float[] in, float[] out, int[] ints) {
    int i = Gpu.globalId(0);
    if (i >= in.length) {
      return;
    }
    float a = clampedAt(in, i - 1);
    float b = clampedAt(in, i + 1);
    out[i] = square(a) + square(b - a);
    accumulate(out, i, in[i]);
    int s = steps(i % 97 + 1);
    int t = steps((s & 63) + 1);
    s += t;
    ints[i] = s + index(i, 2, 7);
  }
}
