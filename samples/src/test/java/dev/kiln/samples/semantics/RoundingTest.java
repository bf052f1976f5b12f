package dev.kiln.samples.semantics;

import dev.kiln.samples.testing.BothDevices;
import corpus.RoundingKernels;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Math.floor, ceil, rint, round, abs and signum give Java's bits on every device, for the values
 * where roundings go wrong (ties, both zeros, the edges of the integral range, infinities, NaN,
 * subnormals) and for random values of every magnitude.
 */
class RoundingTest extends BothDevices {
  private static final double[] EDGES = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, -3.5, 3.5, 0.49999997, -0.49999997,
      0.50000006, 1.0, -1.0, 0.3, -0.3, 0.7, -0.7, 1e-3, -1e-3, 8388607.5, -8388607.5, 8388608.0, -8388609.0, 16777215.0,
      4503599627370495.5, -4503599627370495.5, 4503599627370496.0, 9007199254740993.0, 1e300, -1e300,
      Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, Double.MIN_VALUE, -Double.MIN_VALUE,
      Double.MIN_NORMAL, Float.MIN_NORMAL, -Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 2147483647.5,
      -2147483648.5, 9.3e18, -9.3e18};

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {46, 255, 4099})
  void roundingsMatchJava(int n) {
    compare("roundings", n, r -> {
      float[] f = new float[n];
      double[] d = new double[n];
      for (int i = 0; i < n; i++) {
        d[i] = i < EDGES.length ? EDGES[i] : randomMagnitude(r);
        f[i] = (float) d[i];
      }
      return new Object[] {f, d, new float[4 * n], new int[n], new double[5 * n], new long[n]};
    }, (device, a) -> RoundingKernels.roundings(device, n, (float[]) a[0], (double[]) a[1], (float[]) a[2],
        (int[]) a[3], (double[]) a[4], (long[]) a[5]));
  }

  /** A value of random sign, between 2^-30 and 2^60, with a random number of fraction bits; or a tie. */
  private static double randomMagnitude(Random r) {
    double value = Math.scalb(1 + r.nextDouble(), r.nextInt(-30, 60));
    if (r.nextInt(4) == 0) {
      value = Math.floor(value) + 0.5;
    }
    return r.nextBoolean() ? value : -value;
  }
}
