package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

public final class Loops {
  @Kernel
  static void horner(float[] coefficients, float[] xs, float[] ys) {
    int i = Gpu.globalId(0);
    if (i >= xs.length) {
      return;
    }
    float sum = 0f;
    for (int k = coefficients.length - 1; k >= 0; k--) {
      sum = sum * xs[i] + coefficients[k];
    }
    ys[i] = sum;
  }

  /** Collatz steps, capped: while, break, continue. */
  @Kernel(workgroup = 32)
  static void collatz(int[] values, int[] steps, int cap) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      int n = values[i];
      int count = 0;
      while (n != 1) {
        if (count == cap) {
          break;
        }
        count++;
        if ((n & 1) == 0) {
          n >>>= 1;
          continue;
        }
        n = 3 * n + 1;
      }
      steps[i] = count;
    }
  }

  /** do-while with a short-circuit condition, and an endless loop left by return. */
  @Kernel
  static void digits(int[] values, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= values.length) {
      return;
    }
    int v = values[i];
    int digits = 0;
    do {
      digits++;
      v /= 10;
    } while (v != 0 && digits < 100);
    for (;;) {
      out[i] = digits;
      return;
    }
  }
}
