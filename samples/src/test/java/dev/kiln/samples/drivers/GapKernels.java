package dev.kiln.samples.drivers;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Kernels that meet known driver bugs, for {@link DriverGapsTest}: each computes one value per element. */
final class GapKernels {
  private GapKernels() {}

  /** {@code 0f - x}: lavapipe returns {@code -x}, so {@code -0f} for {@code +0f}. */
  @Kernel
  static void zeroMinus(float[] x, float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < x.length) {
      out[i] = 0f - x[i];
    }
  }

  /** {@code x - x}: {@code +0f} in Java for every finite x, including -0f. */
  @Kernel
  static void selfMinus(float[] x, float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < x.length) {
      float v = x[i] * 0.5f;
      out[i] = v - v;
    }
  }

  /** A division by a zero the driver can see: ±Infinity or NaN in Java. */
  @Kernel
  static void divideByVisibleZero(float[] x, float[] out, float s) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < x.length) {
      out[i] = x[i] / (0f * s);
    }
  }

  /** An int compared with a long constant. */
  @Kernel
  static void intAgainstLong(int[] c, int[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < c.length) {
      out[i] = c[i] >= -2L ? 1 : 0;
    }
  }

  /** Products and sums with a constant zero keep NaN and the sign of zero in Java. */
  @Kernel
  static void constantZero(float[] x, float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < x.length) {
      out[i] = x[i] * 0f + (-0f);
    }
  }

  /**
   * Subnormal values, made by arithmetic from normal ones: a product that underflows and a remainder
   * by such a product (NVIDIA flushes it to zero, so x % 0: NaN). Java computes with them exactly.
   */
  @Kernel
  static void subnormals(float[] x, float[] y, float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < x.length && i < y.length) {
      out[i] = i % 3 == 0 ? x[i] * 0x1p-70f * 0x1p-60f : x[i] % (y[i] * 0x1p-70f * 0x1p-60f);
    }
  }

  /** Results of one kind of operation per output, for {@link DriverGapsTest#subnormalOperations}. */
  static final int OPERATIONS = 12;
  /** Results of one kind of comparison or conversion to int per output. */
  static final int TESTS = 6;

  /**
   * One float operation per element of {@code out} and one test per element of {@code tests}, on
   * pairs that subnormals are among: a device that flushes them must give Java's bits or, operation
   * by operation, those of the model ({@link dev.kiln.samples.testing.FlushingTwin}).
   */
  @Kernel
  static void subnormalOperations(float[] x, float[] y, float[] out, int[] tests) {
    int i = Gpu.globalId(0);
    if (i < x.length && i < y.length) {
      int o = i * OPERATIONS;
      out[o] = x[i] / y[i];
      out[o + 1] = x[i] * y[i];
      out[o + 2] = x[i] + y[i];
      out[o + 3] = x[i] - y[i];
      out[o + 4] = x[i] % y[i];
      out[o + 5] = Math.min(x[i], y[i]);
      out[o + 6] = Math.max(x[i], y[i]);
      out[o + 7] = x[i];
      out[o + 8] = -x[i];
      out[o + 9] = Math.abs(x[i]) + Gpu.floor(x[i]);
      out[o + 10] = (float) ((double) x[i] * (double) y[i]);
      out[o + 11] = Math.fma(x[i], y[i], x[i]);
      int t = i * TESTS;
      tests[t] = x[i] < y[i] ? 1 : 0;
      tests[t + 1] = x[i] == y[i] ? 1 : 0;
      tests[t + 2] = x[i] != 0f ? 1 : 0;
      tests[t + 3] = Float.floatToRawIntBits(Math.abs(x[i]));
      tests[t + 4] = Math.round(x[i] * 0x1p126f);
      tests[t + 5] = (int) (x[i] * 0x1p100f * 0x1p49f);
    }
  }

  /**
   * Counts loop turns: one loop of {@code n}, or {@code outer} turns of an inner loop of
   * {@code inner}. Lavapipe ends loops after 65,535 loop-header evaluations per invocation.
   */
  @Kernel(workgroup = 1)
  static void loopTurns(int[] out, int n, int outer, int inner) {
    int c = 0;
    for (int j = 0; j < n; j++) {
      c++;
    }
    out[0] = c;
    int d = 0;
    for (int a = 0; a < outer; a++) {
      for (int b = 0; b < inner; b++) {
        d++;
      }
    }
    out[1] = d;
  }

  /**
   * Two loops one after the other, the first long in even invocations, the second in odd ones:
   * lavapipe runs a SIMD group's lanes together, so the group enters both loops' headers, and its
   * count is the sum of the two where no lane's own count is. (The local id keeps it one element
   * per invocation: vectorized, each invocation would run the loops of four elements.)
   */
  @Kernel(workgroup = 64)
  static void alternateLoops(int[] out, int n1, int n2) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      int first = Gpu.localId(0) % 2 == 0 ? n1 : 1;
      int second = Gpu.localId(0) % 2 == 0 ? 1 : n2;
      int c = 0;
      for (int j = 0; j < first; j++) {
        c++;
      }
      for (int j = 0; j < second; j++) {
        c += 2;
      }
      out[i] = c;
    }
  }
}
