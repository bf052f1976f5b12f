package dev.kiln.bench.launch;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.Gpu;
import dev.kiln.IntArray;
import dev.kiln.Recording;
import dev.kiln.annotations.Kernel;
import java.util.Arrays;

/**
 * Host wall time of small launches: one 64-invocation launch on device arrays from the call to its
 * completion; batches of 1, 10 and 100 such launches (created, recorded, submitted, waited); the
 * time to record one launch into a batch of 10 000 and the GPU time per launch there (timestamps;
 * a barrier between launches, as each reads and writes the same array); one launch on a Java
 * {@code int[64]} (copied in and back); recordings of 10 and 100 such launches replayed (host time
 * and GPU time per launch), and of 100 after an upload of an {@code int[2]} (a decoder step's
 * position and token); medians of the runs after a second of the same work.
 * {@link RawLaunchBench} is the same table for hand-written LWJGL. Run it once with {@code -Dkiln.fenceSpinMicros=0} to see
 * what polling the fence before sleeping saves.
 *
 * <p>{@code java -cp ... dev.kiln.bench.launch.LaunchBench [runs [csv folder]]}
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
    LaunchTable table = new LaunchTable("kiln", args);
    try (Device device = Device.open(); IntArray d = device.ints(64)) {
      System.out.printf("%s, kiln.fenceSpinMicros=%s: median host time of %d runs%n", device.name(),
          System.getProperty("kiln.fenceSpinMicros", "default"), runs);
      row(table, "single launch", runs, () -> LaunchBenchKernels.bump(device, 64, d));
      for (int launches : new int[] {1, 10, 100}) {
        row(table, "batch of " + launches, runs / launches * 10 + 20, () -> {
          try (Batch batch = device.batch()) {
            for (int k = 0; k < launches; k++) {
              LaunchBenchKernels.bump(batch, 64, d);
            }
          }
        });
      }
      for (int launches : new int[] {10, 100}) {
        try (Recording recording = device.record(batch -> {
          for (int k = 0; k < launches; k++) {
            LaunchBenchKernels.bump(batch, 64, d);
          }
        })) {
          long[] gpuNanos = new long[runs / launches * 10 + 20];
          int[] run = new int[1];
          row(table, "recording of " + launches + " replayed", gpuNanos.length, () -> {
            recording.replay();
            gpuNanos[run[0]++ % gpuNanos.length] = recording.deviceNanos();
          });
          table.row("GPU time per launch there", median(gpuNanos) / 1e3 / launches, "");
        }
      }
      try (IntArray step = device.ints(2); Recording recording = device.record(batch -> {
        for (int k = 0; k < 100; k++) {
          LaunchBenchKernels.bump(batch, 64, d);
        }
      })) {
        int[] position = new int[2];
        row(table, "int[2] uploaded then recording of 100 replayed", runs / 10 + 20, () -> {
          position[0]++;
          step.upload(position);
          recording.replay();
        });
      }
      int many = 10_000;
      int runs10k = 20;
      long[] recording = new long[runs10k];
      long[] gpu = new long[runs10k];
      for (int r = -1; r < runs10k; r++) { // the first run warms up
        try (Batch batch = device.batch()) {
          long start = System.nanoTime();
          for (int k = 0; k < many; k++) {
            LaunchBenchKernels.bump(batch, 64, d);
          }
          long recorded = System.nanoTime() - start;
          batch.submit();
          if (r >= 0) {
            recording[r] = recorded;
            gpu[r] = batch.deviceNanos();
          }
        }
      }
      table.row("recording one launch of " + many, median(recording) / 1e3 / many, "");
      table.row("GPU time per launch there", median(gpu) / 1e3 / many, "");
      int[] values = new int[64];
      row(table, "single launch on Java int[64]", runs, () -> LaunchBenchKernels.bump(device, 64, values));
      row(table, "upload int[64]", runs, () -> d.upload(values));
      row(table, "download int[64]", runs, () -> d.download(values));
    }
  }

  private static long median(long[] nanos) {
    Arrays.sort(nanos);
    return nanos[nanos.length / 2];
  }

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  /**
   * {@code operation}'s row: the median host time of {@code runs} runs of {@code launch} after a
   * second of it, noted with the bytes the calling thread allocated per run meanwhile (the launchers'
   * varargs array is 24 of them).
   */
  private static void row(LaunchTable table, String operation, int runs, Runnable launch) {
    long warmUntil = System.nanoTime() + 1_000_000_000L;
    while (System.nanoTime() < warmUntil) {
      launch.run();
    }
    long[] nanos = new long[runs];
    long allocated = THREADS.getCurrentThreadAllocatedBytes();
    for (int r = 0; r < runs; r++) {
      long start = System.nanoTime();
      launch.run();
      nanos[r] = System.nanoTime() - start;
    }
    allocated = THREADS.getCurrentThreadAllocatedBytes() - allocated;
    table.row(operation, median(nanos) / 1e3, String.format("%6.0f B allocated", (double) allocated / runs));
  }
}
