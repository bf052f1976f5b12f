package dev.kiln.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The suite's timing protocol. The H200 idles at 345 MHz and lowers its clock within a second of
 * idling, also while the host fills a large input, so every figure is measured right after at
 * least 1.5 s of the same work; then {@link #RUNS} runs, each timed by the GPU's own timestamps,
 * give the median and the spread; the SM clock is read from {@code nvidia-smi} right after them.
 */
public final class Measure {
  static final int RUNS = 30;
  static final long WARM_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(1500);

  private Measure() {}

  /**
   * One workload's time: {@code run} returns the GPU nanoseconds of one run; it runs for
   * {@link #WARM_UP_NANOS}, then {@link #RUNS} times.
   */
  static Figure gpu(LongSupplier run) {
    return Figure.of(runs(WARM_UP_NANOS, RUNS, run), smClockMhz());
  }

  /**
   * A host-side time: {@code run} runs for {@link #WARM_UP_NANOS}, then {@code runs} times, each
   * timed on the host's clock (no clock figure).
   */
  static Figure wall(int runs, Runnable run) {
    return Figure.of(runs(WARM_UP_NANOS, runs, () -> {
      long start = System.nanoTime();
      run.run();
      return System.nanoTime() - start;
    }), -1);
  }

  /**
   * Runs {@code run} (which returns the nanoseconds it measured) for {@code warmUpNanos}, then
   * {@code runs} times, and returns their measurements: clocks rise only under load, so the warm-up
   * comes right before.
   */
  public static long[] runs(long warmUpNanos, int runs, LongSupplier run) {
    long warmUntil = System.nanoTime() + warmUpNanos;
    while (System.nanoTime() < warmUntil) {
      long unused = run.getAsLong(); // warm-up: its measurement is not kept
    }
    long[] nanos = new long[runs];
    for (int r = 0; r < runs; r++) {
      nanos[r] = run.getAsLong();
    }
    return nanos;
  }

  /**
   * The GPU's SM clock in MHz, from {@code nvidia-smi}; -1 where there is none (lavapipe, other
   * vendors), which the report prints as "n/a".
   */
  static int smClockMhz() {
    try {
      Process smi = new ProcessBuilder("nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits")
          .redirectErrorStream(true).start();
      String out = new String(smi.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      return smi.waitFor() == 0 ? Integer.parseInt(out.lines().findFirst().orElse("-1").trim()) : -1;
    } catch (IOException | NumberFormatException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** A measured time: median and spread (10th to 90th percentile) of the runs, and the clock after them. */
  record Figure(double medianMs, double lowMs, double highMs, int clockMhz) {
    static Figure of(long[] nanos, int clockMhz) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return new Figure(sorted[sorted.length / 2] / 1e6, sorted[sorted.length / 10] / 1e6,
          sorted[sorted.length - 1 - sorted.length / 10] / 1e6, clockMhz);
    }

    /** {@code work} (bytes, flops) per second at the median time, in billions. */
    double billionsPerSecond(long work) {
      return work / (medianMs * 1e6);
    }

    String clock() {
      return clockMhz < 0 ? "n/a" : clockMhz + " MHz";
    }
  }
}
