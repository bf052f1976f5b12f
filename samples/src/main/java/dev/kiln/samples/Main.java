package dev.kiln.samples;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;
import java.util.Arrays;
import java.util.Random;

/**
 * The README's first command: runs two kernels on the best device there is and checks each result
 * against the same computation in plain Java.
 */
public final class Main {
  private static final int N = 10_000_019; // not a multiple of any workgroup size
  /** Barrier kernels run on the CPU backend as a virtual thread per invocation: fewer elements. */
  private static final int COOPERATIVE_N = 262_147;

  private Main() {}

  public static void main(String[] args) {
    int failures = 0;
    try (Device device = Device.open()) {
      System.out.printf("Kiln on %s (%s backend)%n", device.name(), device.backend());
      failures += saxpy(device);
      failures += horner(device);
      failures += scan(device);
      failures += histogram(device);
      failures += develop(device);
    }
    if (failures > 0) {
      System.out.println("FAILED: " + failures + " result(s) differ from plain Java");
      System.exit(1);
    }
  }

  private static int saxpy(Device device) {
    Random random = new Random(1);
    float a = 2.5f;
    float[] x = randomFloats(random, N);
    float[] y = randomFloats(random, N);
    float[] expected = y.clone();
    for (int i = 0; i < N; i++) {
      expected[i] = a * x[i] + expected[i];
    }
    try (FloatArray dx = device.upload(x); FloatArray dy = device.upload(y)) {
      SaxpyKernels.saxpy(device, N, a, dx, dy); // first run builds the pipeline
      dy.upload(y);
      long start = System.nanoTime();
      SaxpyKernels.saxpy(device, N, a, dx, dy);
      long nanos = System.nanoTime() - start;
      return report("saxpy", dy.toArray(), expected, nanos);
    }
  }

  private static int horner(Device device) {
    Random random = new Random(2);
    float[] coefficients = randomFloats(random, 12);
    float[] xs = randomFloats(random, N);
    float[] expected = new float[N];
    for (int i = 0; i < N; i++) {
      float sum = 0f;
      for (int k = coefficients.length - 1; k >= 0; k--) {
        sum = sum * xs[i] + coefficients[k];
      }
      expected[i] = sum;
    }
    float[] ys = new float[N];
    PolynomialKernels.horner(device, N, coefficients, xs, ys); // first run builds the pipeline
    Arrays.fill(ys, 0f);
    long start = System.nanoTime();
    PolynomialKernels.horner(device, N, coefficients, xs, ys);
    long nanos = System.nanoTime() - start;
    return report("horner", ys, expected, nanos);
  }

  private static int scan(Device device) {
    int[] data = new Random(3).ints(COOPERATIVE_N, -1000, 1000).toArray();
    int[] expected = data.clone();
    for (int i = 1; i < COOPERATIVE_N; i++) {
      if (i % Scan.WORKGROUP != 0) {
        expected[i] += expected[i - 1];
      }
    }
    int[] totals = new int[Math.ceilDiv(COOPERATIVE_N, Scan.WORKGROUP)];
    ScanKernels.inclusiveScan(device, COOPERATIVE_N, data.clone(), totals); // first run builds the pipeline
    long start = System.nanoTime();
    ScanKernels.inclusiveScan(device, COOPERATIVE_N, data, totals);
    long nanos = System.nanoTime() - start;
    return report("scan", mismatches(expected, data), COOPERATIVE_N, nanos);
  }

  private static int histogram(Device device) {
    int[] values = new Random(4).ints(COOPERATIVE_N).toArray();
    int[] expected = new int[Histogram.BINS];
    for (int value : values) {
      expected[Math.floorMod(value, Histogram.BINS)]++;
    }
    HistogramKernels.histogramShared(device, COOPERATIVE_N, values, new int[Histogram.BINS]); // builds the pipeline
    int[] bins = new int[Histogram.BINS];
    long start = System.nanoTime();
    HistogramKernels.histogramShared(device, COOPERATIVE_N, values, bins);
    long nanos = System.nanoTime() - start;
    return report("histogram", mismatches(expected, bins), Histogram.BINS, nanos);
  }

  /**
   * A 2048 x 1536 RGB image developed by the fuse group {@code develop} (one dispatch) and by its
   * four kernels one after the other, both checked against plain Java.
   */
  private static int develop(Device device) {
    int n = 2048 * 1536 * 3;
    float gain = 1.7f;
    float white = 2.5f;
    Random random = new Random(5);
    float[] linear = new float[n];
    for (int i = 0; i < n; i++) {
      linear[i] = random.nextFloat(0f, 3f);
    }
    int[] expected = new int[n];
    for (int i = 0; i < n; i++) {
      float x = linear[i] * gain;
      x = x * (1f + x / (white * white)) / (1f + x);
      x = Math.min(Math.max(x, 0f), 1f);
      expected[i] = (int) (x * 255f + 0.5f);
    }
    try (FloatArray pixels = device.upload(linear); IntArray bytes = device.ints(n)) {
      PostProcessKernels.develop(device, n, pixels, gain, white, bytes); // builds the pipeline
      pixels.upload(linear);
      long start = System.nanoTime();
      PostProcessKernels.develop(device, n, pixels, gain, white, bytes);
      long fused = System.nanoTime() - start;
      int failures = report("develop", mismatches(expected, bytes.toArray()), n, fused);

      PostProcessKernels.exposure(device, n, pixels.upload(linear), gain); // builds the arms' pipelines
      PostProcessKernels.toneCurve(device, n, pixels, white);
      PostProcessKernels.clamp(device, n, pixels);
      PostProcessKernels.quantize(device, n, pixels, bytes.upload(new int[n]));
      pixels.upload(linear);
      start = System.nanoTime();
      PostProcessKernels.exposure(device, n, pixels, gain);
      PostProcessKernels.toneCurve(device, n, pixels, white);
      PostProcessKernels.clamp(device, n, pixels);
      PostProcessKernels.quantize(device, n, pixels, bytes);
      long separate = System.nanoTime() - start;
      return failures + report("unfused", mismatches(expected, bytes.toArray()), n, separate);
    }
  }

  private static String mismatches(int[] expected, int[] actual) {
    for (int i = 0; i < expected.length; i++) {
      if (expected[i] != actual[i]) {
        return "results differ, first at " + i + ": " + actual[i] + " instead of " + expected[i];
      }
    }
    return null;
  }

  private static float[] randomFloats(Random random, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextFloat(-1f, 1f);
    }
    return values;
  }

  /** Prints the check and the time; returns 1 if any element differs in any bit. */
  private static int report(String kernel, float[] actual, float[] expected, long nanos) {
    String difference = null;
    for (int i = 0; i < expected.length && difference == null; i++) {
      if (Float.floatToRawIntBits(actual[i]) != Float.floatToRawIntBits(expected[i])) {
        difference = "results differ, first at " + i + ": " + actual[i] + " instead of " + expected[i];
      }
    }
    return report(kernel, difference, expected.length, nanos);
  }

  private static int report(String kernel, String difference, int results, long nanos) {
    String check = difference == null ? "all " + results + " results equal plain Java bit for bit" : difference;
    System.out.printf("%-9s %s; %.2f ms%n", kernel, check, nanos / 1e6);
    return difference == null ? 0 : 1;
  }
}
