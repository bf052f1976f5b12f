package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.FloatArray;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Saxpy on Vulkan (validation layer on) and on the CPU backend equals plain Java bit for bit. */
class SaxpyTest extends BothDevices {
  private record Case(float a, float[] x, float[] y, float[] expected) {
    static Case random(int n) {
      Random random = new Random(n);
      float a = random.nextFloat(-4f, 4f);
      float[] x = Bits.randomFloats(random, n, 1000f);
      float[] y = Bits.randomFloats(random, n, 1000f);
      float[] expected = new float[n];
      for (int i = 0; i < n; i++) {
        expected[i] = a * x[i] + y[i];
      }
      return new Case(a, x, y, expected);
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 256, 1_000_003})
  void onVulkanWithDeviceArrays(int n) {
    Case c = Case.random(n);
    try (FloatArray x = vulkan.upload(c.x()); FloatArray y = vulkan.upload(c.y())) {
      SaxpyKernels.saxpy(vulkan, n, c.a(), x, y);
      Bits.assertSameBits("saxpy y", c.expected(), y.toArray());
      Bits.assertSameBits("saxpy x (read only)", c.x(), x.toArray());
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 256, 1_000_003})
  void onVulkanWithJavaArrays(int n) {
    Case c = Case.random(n);
    float[] y = c.y().clone();
    SaxpyKernels.saxpy(vulkan, n, c.a(), c.x(), y);
    Bits.assertSameBits("saxpy y", c.expected(), y);
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 256, 1_000_003})
  void onTheCpuBackend(int n) {
    Case c = Case.random(n);
    float[] y = c.y().clone();
    SaxpyKernels.saxpy(cpu, n, c.a(), c.x(), y);
    Bits.assertSameBits("saxpy y", c.expected(), y);
  }

  @ParameterizedTest(name = "count = {0} of 1000")
  @ValueSource(ints = {0, 1, 999})
  void invocationsPastTheCountDoNothing(int count) {
    Case c = Case.random(1000);
    float[] y = c.y().clone();
    SaxpyKernels.saxpy(vulkan, count, c.a(), c.x(), y);
    float[] expected = c.y().clone();
    System.arraycopy(c.expected(), 0, expected, 0, count);
    Bits.assertSameBits("saxpy y", expected, y);
  }
}
