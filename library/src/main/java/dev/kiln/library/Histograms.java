package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.IntArray;

/**
 * Histograms of int values: {@code counts[b]} becomes the number of values equal to {@code b}, for
 * each {@code b} below {@code counts.length} (the bin count, any from 1). Counts are exact (ints
 * added with atomics: any order gives Java's loop's counts). A value outside {@code [0,
 * counts.length)} throws the {@code ArrayIndexOutOfBoundsException} that Java's {@code counts[v]++}
 * would (naming one such value where there are several); {@code counts} is then unspecified.
 *
 * <p>Up to 1024 bins, each workgroup counts into 4 copies of the bins in its own memory (a quarter
 * of its invocations to a copy; up to 256 bins in counters of a constant size, whose indices need
 * no check as the device runs), up to 4096 into fewer copies, then adds its totals to {@code
 * counts}; more bins are counted in {@code counts} directly. A run of equal values met by one
 * invocation is added at once, so skewed input costs no more than uniform input.
 *
 * <pre>{@code
 * int[] bytes = ...; // values in 0..255
 * int[] counts = new int[256];
 * Histograms.counts(device, bytes, counts);
 * }</pre>
 */
public final class Histograms {
  private static final int WORKGROUP = HistogramKernels.WORKGROUP;

  private Histograms() {}

  /**
   * {@code counts[b]}: how many of {@code values} equal {@code b}.
   *
   * @param device where it runs
   * @param values the values, each in {@code [0, counts.length)}
   * @param counts the bins, at least one
   */
  public static void counts(Device device, int[] values, int[] counts) {
    checkBins(counts.length);
    java.util.Arrays.fill(counts, 0);
    int n = values.length;
    if (n == 0) {
      return;
    }
    int bins = counts.length;
    int slots = slots(bins);
    if (bins <= HistogramKernels.SMALL_BINS) {
      HistogramKernelsKernels.smallCounts(device, grid(n), values, counts, n, bins);
    } else if (slots > 0) {
      HistogramKernelsKernels.sharedCounts(device, grid(n), values, counts, n, bins, slots);
    } else {
      HistogramKernelsKernels.globalCounts(device, grid(n), values, counts, n);
    }
  }

  /**
   * {@link #counts(Device, int[], int[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param values the values, each in {@code [0, counts.length())}
   * @param counts the bins, at least one
   */
  public static void counts(Device device, IntArray values, IntArray counts) {
    try (Batch batch = device.batch()) {
      counts(batch, values, counts);
    }
  }

  /**
   * {@link #counts(Device, int[], int[])} in a batch: the bins are zeroed, then counted.
   *
   * @param batch the batch that records it
   * @param values the values, each in {@code [0, counts.length())}
   * @param counts the bins, at least one
   */
  public static void counts(Batch batch, IntArray values, IntArray counts) {
    int bins = counts.length();
    checkBins(bins);
    HistogramKernelsKernels.zero(batch, bins, counts);
    int n = values.length();
    if (n == 0) {
      return;
    }
    int slots = slots(bins);
    if (bins <= HistogramKernels.SMALL_BINS) {
      HistogramKernelsKernels.smallCounts(batch, grid(n), values, counts, n, bins);
    } else if (slots > 0) {
      HistogramKernelsKernels.sharedCounts(batch, grid(n), values, counts, n, bins, slots);
    } else {
      HistogramKernelsKernels.globalCounts(batch, grid(n), values, counts, n);
    }
  }

  private static void checkBins(int bins) {
    if (bins == 0) {
      throw new IllegalArgumentException("counts: a histogram needs at least one bin");
    }
  }

  /**
   * The counters in workgroup memory for {@code bins}: as many copies as fit, up to {@link
   * Tuning#HISTOGRAM_COPIES}; 0 where one copy does not.
   */
  private static int slots(int bins) {
    for (int copies = Tuning.HISTOGRAM_COPIES; copies >= 1; copies /= 2) {
      if ((long) copies * bins <= Tuning.WORKGROUP_COUNTERS) {
        return copies * bins;
      }
    }
    return 0;
  }

  /** The persistent grid for {@code n} values: a workgroup per 256, up to the tuned count. */
  private static int grid(int n) {
    long workgroups = Math.min((n + (long) WORKGROUP - 1) / WORKGROUP, Tuning.HISTOGRAM_WORKGROUPS);
    return (int) workgroups * WORKGROUP;
  }
}
