package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.IntArray;
import dev.kiln.internal.Dispatch;
import dev.kiln.samples.ByteHistogram;
import dev.kiln.samples.ByteHistogramKernels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * 256-bin histograms of the values' low bytes, on uniform input and on input with 90 % of the
 * values in one bin: the sample {@link ByteHistogram} on persistent grids of several sizes and its
 * GLSL twin, against the suite's one-value-per-invocation kernel. Every output is checked against
 * Java's counts. PyTorch's {@code bincount} on the same inputs comes from
 * {@code bench/torch_histogram.py}.
 *
 * <p>{@code java -cp ... dev.kiln.bench.HistogramBench <out dir> [log2 sizes...]} (default 24 26 28);
 * {@code -Dkiln.bench.histogramGroups=264,528,1056,2112} sets the grids (workgroups of 256). Writes
 * {@code histogram.csv}; the workload is "histogram" or "histogram skewed", the work 4 bytes a value.
 */
public final class HistogramBench {
  private HistogramBench() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "bench-results");
    int[] logs = args.length > 1 ? Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray()
        : new int[] {24, 26, 28};
    int[] grids = Arrays.stream(System.getProperty("kiln.bench.histogramGroups", "264,528,1056,2112").split(","))
        .mapToInt(g -> Integer.parseInt(g.strip())).toArray();
    Files.createDirectories(out);
    Results results = new Results();
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s (%s)%n", device.name(), device.backend());
      for (int log : logs) {
        for (int skew : new int[] {0, 90}) {
          histogram(device, 1 << log, skew, grids, results);
        }
      }
    }
    results.write(out.resolve("histogram.csv"));
  }

  /**
   * The values of {@code torch_histogram.py} too: uniform bytes from a fixed hash, or with
   * {@code skew} percent of them replaced by bin 7.
   */
  static int[] values(int n, int skew) {
    return IntStream.range(0, n).parallel().map(i -> {
      int hash = i * 0x9E3779B9;
      hash ^= hash >>> 15;
      hash *= 0x2C1B3C6D;
      hash ^= hash >>> 12;
      return Integer.remainderUnsigned(hash, 100) < skew ? 7 : hash >>> 8;
    }).toArray();
  }

  private static void histogram(Device device, int n, int skew, int[] grids, Results results) {
    int[] values = values(n, skew);
    int[] expected = new int[ByteHistogram.BINS];
    for (int value : values) {
      expected[value & 255]++;
    }
    String workload = skew == 0 ? "histogram" : "histogram skewed";
    try (IntArray in = device.upload(values); IntArray bins = device.ints(ByteHistogram.BINS)) {
      time(workload, "Kiln 1 per invocation", n, bins, expected, results,
          () -> WorkgroupsKernels.histogram(device, n, in, bins));
      for (int groups : grids) {
        int invocations = groups * 256;
        time(workload, "Kiln fast " + groups, n, bins, expected, results,
            () -> ByteHistogramKernels.count(device, invocations, in, bins));
        time(workload, "GLSL fast " + groups, n, bins, expected, results,
            () -> Dispatch.dispatch(device, GlslTwins.HISTOGRAM_FAST, invocations, in, bins));
      }
    }
  }

  private static void time(String workload, String variant, int n, IntArray bins, int[] expected,
      Results results, Runnable launch) {
    bins.upload(new int[ByteHistogram.BINS]);
    launch.run();
    if (!Arrays.equals(expected, bins.toArray())) {
      throw new AssertionError(variant + " " + workload + " differs from Java's counts: "
          + Arrays.stream(bins.toArray()).asLongStream().sum() + " values counted of " + n);
    }
    results.add(workload, variant, n, 4L * n, Measure.gpu(() -> {
      launch.run();
      return Device.lastDeviceNanos();
    }));
  }
}
