package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** TornadoVM's BlackScholes example: call and put prices from the cumulative normal distribution. */
final class BlackScholes {
  static final double TOLERANCE = 1e-3;
  static final int N = 4001;

  private static float cnd(float x) {
    final float c1 = 0.319381530f;
    final float c2 = -0.356563782f;
    final float c3 = 1.781477937f;
    final float c4 = -1.821255978f;
    final float c5 = 1.330274429f;
    final float zero = 0.0f;
    final float one = 1.0f;
    final float two = 2.0f;
    final float temp4 = 0.2316419f;
    final float oneBySqrt2pi = (float) (1.0 / Math.sqrt(2.0 * Math.PI));
    float absX = Math.abs(x);
    float t = one / (one + temp4 * absX);
    float y = one - oneBySqrt2pi * Gpu.exp(-x * x / two) * t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * c5))));
    return (x < zero) ? (one - y) : y;
  }

  @Kernel
  static void blackScholesKernel(float[] input, float[] callResult, float[] putResult) {
    int idx = Gpu.globalId(0);
    if (idx < input.length) {
      float rand = input[idx];
      final float sLowerLimit = 10.0f;
      final float sUpperLimit = 100.0f;
      final float kLowerLimit = 10.0f;
      final float kUpperLimit = 100.0f;
      final float tLowerLimit = 1.0f;
      final float tUpperLimit = 10.0f;
      final float rLowerLimit = 0.01f;
      final float rUpperLimit = 0.05f;
      final float sigmaLowerLimit = 0.01f;
      final float sigmaUpperLimit = 0.10f;
      final float s = sLowerLimit * rand + sUpperLimit * (1.0f - rand);
      final float k = kLowerLimit * rand + kUpperLimit * (1.0f - rand);
      final float t = tLowerLimit * rand + tUpperLimit * (1.0f - rand);
      final float r = rLowerLimit * rand + rUpperLimit * (1.0f - rand);
      final float v = sigmaLowerLimit * rand + sigmaUpperLimit * (1.0f - rand);
      float d1 = (Gpu.log(s / k) + ((r + ((v * v) / 2)) * t)) / v * Gpu.sqrt(t);
      float d2 = d1 - (v * Gpu.sqrt(t));
      callResult[idx] = s * cnd(d1) - k * Gpu.exp(t * (-1) * r) * cnd(d2);
      putResult[idx] = k * Gpu.exp(t * -r) * cnd(-d2) - s * cnd(-d1);
    }
  }

  static final int blackScholesKernelGrid = N;

  static Object[] blackScholesKernelArgs(Random random) {
    float[] input = new float[N];
    for (int i = 0; i < N; i++) {
      input[i] = random.nextFloat();
    }
    return new Object[] {input, new float[N], new float[N]};
  }
}
