package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.FloatArray;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The loop kernel on Vulkan (validation layer on) and on the CPU backend equals plain Java. */
class PolynomialTest extends BothDevices {
  private static float[] horner(float[] coefficients, float[] xs) {
    float[] ys = new float[xs.length];
    for (int i = 0; i < xs.length; i++) {
      float sum = 0f;
      for (int k = coefficients.length - 1; k >= 0; k--) {
        sum = sum * xs[i] + coefficients[k];
      }
      ys[i] = sum;
    }
    return ys;
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 256, 1_000_003})
  void onVulkan(int n) {
    Random random = new Random(n);
    float[] coefficients = Bits.randomFloats(random, 1 + random.nextInt(16), 1f);
    float[] xs = Bits.randomFloats(random, n, 1f);
    try (FloatArray c = vulkan.upload(coefficients); FloatArray x = vulkan.upload(xs); FloatArray y = vulkan.floats(n)) {
      PolynomialKernels.horner(vulkan, n, c, x, y);
      Bits.assertSameBits("horner", horner(coefficients, xs), y.toArray());
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 256, 1_000_003})
  void onTheCpuBackend(int n) {
    Random random = new Random(n);
    float[] coefficients = Bits.randomFloats(random, 1 + random.nextInt(16), 1f);
    float[] xs = Bits.randomFloats(random, n, 1f);
    float[] ys = new float[n];
    PolynomialKernels.horner(cpu, n, coefficients, xs, ys);
    Bits.assertSameBits("horner", horner(coefficients, xs), ys);
  }
}
