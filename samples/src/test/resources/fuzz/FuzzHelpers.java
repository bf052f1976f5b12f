package fuzz;

/**
 * Helpers that the random kernels call (RandomKernels): another class than theirs, compiled in the
 * middle of the fuzz classes, so that some kernel classes are analyzed before it and some after.
 * Pure and statement helpers, parameters assigned, early returns from loops, a nested class, private
 * arrays of the caller, and calls back into one another.
 */
public final class FuzzHelpers {
  private FuzzHelpers() {}

  static int mix(int a, int b) {
    return a * 31 + (b ^ (a >>> 3));
  }

  static int clampIndex(int v, int n) {
    if (v < 0) {
      v = -(v + 1);
    }
    return v % n;
  }

  static int digits(int v) {
    int n = 0;
    do {
      v /= 10;
      n++;
    } while (v != 0 && n < 12);
    return mix(n, v);
  }

  static float blend(float x, float y, int k) {
    float acc = x;
    for (int j = 0; j < (k & 3); j++) {
      if (acc > 1000f) {
        return acc - y;
      }
      acc = acc * 0.5f + y;
    }
    return acc;
  }

  static float poly(float x) {
    return Inner.horner(x, 3) + digits((int) x);
  }

  static int sumOwn(int[] values) {
    int total = 0;
    for (int v : values) {
      total = mix(total, v);
    }
    return total;
  }

  static float sumOwnF(float[] values) {
    float total = 0f;
    for (int k = 0; k < values.length; k++) {
      total += values[k] * (k + 1);
    }
    return total;
  }

  /** A nested class's helper. */
  static final class Inner {
    private Inner() {}

    static float horner(float x, int terms) {
      float y = 0f;
      for (int k = terms; k > 0; k--) {
        y = y * x + k;
      }
      return y;
    }
  }
}
