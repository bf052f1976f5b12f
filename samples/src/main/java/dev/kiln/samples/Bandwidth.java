package dev.kiln.samples;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Memory bandwidth of elementwise kernels on the best device: a copy and saxpy over 2^26 floats,
 * timed per launch (submit to fence, so launch overhead included) after a warm-up of at least two
 * seconds (GPU clocks rise only under load). Prints one line per kernel.
 *
 * <p>{@code java -cp ... dev.kiln.samples.Bandwidth [floats] [launches]}
 */
public final class Bandwidth {
  private Bandwidth() {}

  @Kernel(workgroup = 256, boundsChecks = false)
  static void copy(@Buffer(Access.READ) float[] from, @Buffer(Access.WRITE) float[] to) {
    int i = Gpu.globalId(0);
    if (i < to.length) {
      to[i] = from[i];
    }
  }

  @Kernel(workgroup = 256, boundsChecks = false)
  static void saxpy(float a, @Buffer(Access.READ) float[] x, float[] y) {
    int i = Gpu.globalId(0);
    if (i < y.length) {
      y[i] = a * x[i] + y[i];
    }
  }

  @Kernel(workgroup = 256)
  static void saxpyChecked(float a, @Buffer(Access.READ) float[] x, float[] y) {
    int i = Gpu.globalId(0);
    y[i] = a * x[i] + y[i];
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 26;
    int launches = args.length > 1 ? Integer.parseInt(args[1]) : 50;
    try (Device device = Device.open(); FloatArray x = device.floats(n); FloatArray y = device.floats(n)) {
      System.out.printf("%s (%s), memory=%s, %d floats, %d launches each%n", device.name(), device.backend(),
          System.getProperty("kiln.memory", "auto"), n, launches);
      long warmUntil = System.nanoTime() + 2_000_000_000L;
      while (System.nanoTime() < warmUntil) {
        BandwidthKernels.saxpy(device, n, 1f, x, y);
      }
      report("copy", 2L * Float.BYTES * n, launches, () -> BandwidthKernels.copy(device, n, x, y));
      report("saxpy", 3L * Float.BYTES * n, launches, () -> BandwidthKernels.saxpy(device, n, 1f, x, y));
      report("saxpy, bounds-checked", 3L * Float.BYTES * n, launches,
          () -> BandwidthKernels.saxpyChecked(device, n, 1f, x, y));
    }
  }

  private static void report(String kernel, long bytes, int launches, Runnable launch) {
    launch.run();
    long best = Long.MAX_VALUE;
    long total = 0;
    for (int r = 0; r < launches; r++) {
      long start = System.nanoTime();
      launch.run();
      long nanos = System.nanoTime() - start;
      best = Math.min(best, nanos);
      total += nanos;
    }
    System.out.printf("%-22s best %8.3f ms  mean %8.3f ms  best %7.1f GB/s%n", kernel, best / 1e6,
        total / 1e6 / launches, bytes / (double) best);
  }
}
