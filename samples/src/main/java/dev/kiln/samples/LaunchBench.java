package dev.kiln.samples;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.Gpu;
import dev.kiln.IntArray;
import dev.kiln.annotations.Kernel;
import java.util.Arrays;

/**
 * Host wall time of small launches: one 64-invocation launch on device arrays from the call to its
 * completion, and a batch holding one launch (created, recorded, submitted, waited); median of the
 * runs after a second of the same launches. Run it once with {@code -Dkiln.fenceSpinMicros=0} to see
 * what polling the fence before sleeping saves.
 *
 * <p>{@code java -cp ... dev.kiln.samples.LaunchBench [runs]}
 */
public final class LaunchBench {
  private LaunchBench() {}

  @Kernel
  static void bump(int[] d) {
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = d[i] + 1;
    }
  }

  public static void main(String[] args) {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    try (Device device = Device.open(); IntArray d = device.ints(64)) {
      System.out.printf("%s, kiln.fenceSpinMicros=%s: median host time of %d runs%n", device.name(),
          System.getProperty("kiln.fenceSpinMicros", "default"), runs);
      System.out.printf("single launch      %8.1f µs%n", median(runs, () -> LaunchBenchKernels.bump(device, 64, d)) / 1e3);
      System.out.printf("batch of 1 launch  %8.1f µs%n", median(runs, () -> {
        try (Batch batch = device.batch()) {
          LaunchBenchKernels.bump(batch, 64, d);
        }
      }) / 1e3);
    }
  }

  private static long median(int runs, Runnable launch) {
    long warmUntil = System.nanoTime() + 1_000_000_000L;
    while (System.nanoTime() < warmUntil) {
      launch.run();
    }
    long[] nanos = new long[runs];
    for (int r = 0; r < runs; r++) {
      long start = System.nanoTime();
      launch.run();
      nanos[r] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    return nanos[runs / 2];
  }
}
