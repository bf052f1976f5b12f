package dev.kiln.samples;

import java.util.Arrays;
import java.util.function.LongSupplier;

/** How the benchmarks time a launch: GPU clocks rise only under load, so warm up right before. */
final class GpuTimes {
  private GpuTimes() {}

  /**
   * Runs {@code launch} (which returns its GPU time in nanoseconds) for two seconds of warm-up,
   * then {@code runs} times, and returns the median.
   */
  static long median(int runs, LongSupplier launch) {
    long warmUntil = System.nanoTime() + 2_000_000_000L;
    while (System.nanoTime() < warmUntil) {
      long unused = launch.getAsLong(); // warm-up: its time is not kept
    }
    long[] nanos = new long[runs];
    for (int r = 0; r < runs; r++) {
      nanos[r] = launch.getAsLong();
    }
    Arrays.sort(nanos);
    return nanos[runs / 2];
  }
}
