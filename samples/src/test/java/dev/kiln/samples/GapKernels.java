package dev.kiln.samples;

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
}
