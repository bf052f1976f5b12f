package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * Statements inside larger expressions, as real kernels write them: helpers with statements and
 * switch expressions whose cases run statements, each run where Java evaluates it.
 */
public final class Embedded {
  /** A cumulative normal distribution's shape, as TornadoVM's Black-Scholes writes it: an early return. */
  static float cnd(float x) {
    float l = Math.abs(x);
    float k = 1f / (1f + 0.2316419f * l);
    float w = 1f - k * (0.31938153f + k * (-0.356563782f + k * 1.781477937f));
    if (x < 0f) {
      return 1f - w;
    }
    return w;
  }

  /** Steps until a Mandelbrot orbit escapes: a return from inside a loop. */
  static int escape(float cx, float cy, int limit) {
    float zx = 0f;
    float zy = 0f;
    for (int n = 0; n < limit; n++) {
      if (zx * zx + zy * zy > 4f) {
        return n;
      }
      float t = zx * zx - zy * zy + cx;
      zy = 2f * zx * zy + cy;
      zx = t;
    }
    return limit;
  }

  /** Writes through its array and returns the old value: where its write happens shows. */
  static float bump(float[] a, int i) {
    float old = a[i];
    a[i] = old + 1f;
    return old;
  }

  /** Sums the first {@code n} elements of an array: the kernel passes one of its own. */
  static float sum(float[] a, int n) {
    float total = 0f;
    for (int j = 0; j < n; j++) {
      total += a[j];
    }
    return total;
  }

  /**
   * Adds 1 to {@code a[i]} unless {@code skip}: a form chosen by a constant argument, whose early
   * return stays in the branch the constant keeps.
   */
  static void addUnless(float[] a, int i, int skip) {
    if (skip != 0) {
      return;
    }
    a[i] += 1f;
  }

  @Kernel
  static void embedded(float[] s, float[] k, float[] call, int[] steps, float[] log, int limit) {
    int i = Gpu.globalId(0);
    if (i >= s.length) {
      return;
    }
    call[i] = s[i] * cnd(s[i] - k[i]) - k[i] * cnd(k[i] - s[i]);
    steps[i] = 1 + escape(s[i] / 4f, k[i] / 4f, limit);
    log[i] = bump(log, i) + log[i]; // the old value, then the bumped one
    log[i] = i % 3 == 0 ? bump(log, i) : -log[i]; // bumps only where chosen
    addUnless(log, i, 1); // returns at once
    addUnless(log, i, 0);
    steps[i] += switch (steps[i] & 3) {
      case 0 -> 7;
      case 1 -> {
        int t = steps[i] * 3;
        yield t ^ i;
      }
      default -> {
        int u = 0;
        for (int j = 0; j < (i & 7); j++) {
          u += j;
        }
        yield u;
      }
    };
    if (i + 1 < s.length && cnd(s[i + 1]) > 0.5f) { // the helper runs only where the left side holds
      call[i] += 1f;
    }
    float[] own = {s[i], k[i], 0.25f};
    call[i] = 2f * sum(own, 3) - call[i];
  }
}
