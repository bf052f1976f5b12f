package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Evaluates a polynomial at many points with Horner's rule: a kernel with a loop. */
public final class Polynomial {
  private Polynomial() {}

  /** {@code y[i] = c[n-1] * x^(n-1) + ... + c[1] * x + c[0]} at {@code x = xs[i]}. */
  @Kernel
  static void horner(@Buffer(Access.READ) float[] coefficients, @Buffer(Access.READ) float[] xs,
      @Buffer(Access.WRITE) float[] ys) {
    int i = Gpu.globalId(0);
    if (i >= xs.length) {
      return;
    }
    float x = xs[i];
    float sum = 0f;
    for (int k = coefficients.length - 1; k >= 0; k--) {
      sum = sum * x + coefficients[k];
    }
    ys[i] = sum;
  }
}
