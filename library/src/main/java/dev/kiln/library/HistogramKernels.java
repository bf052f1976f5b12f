package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Histograms}: a persistent grid whose invocations walk the values
 * grid-stride (every load coalesced) and add each run of equal values within an invocation as one
 * atomic (which makes skewed input cheap). {@link #smallCounts} and {@link #sharedCounts} count
 * into workgroup memory first, in copies that groups of subgroups share (contention on a popular
 * bin spreads), then add each bin's total to the buffer; {@link #globalCounts} counts straight into
 * the buffer, for bins past workgroup memory. A value outside {@code [0, counts.length)} is added
 * to {@code counts} at its own index, which faults as Java's {@code counts[v]++} would.
 */
final class HistogramKernels {
  static final int WORKGROUP = Tuning.HISTOGRAM_WORKGROUP;

  /** Bins {@link #smallCounts} takes, a power of two. */
  static final int SMALL_BINS = Tuning.HISTOGRAM_SMALL_BINS;

  private static final int COPIES = Tuning.HISTOGRAM_COPIES;

  private HistogramKernels() {}

  /**
   * Adds to {@code counts[b]} the number of the first {@code n} values equal to {@code b}, {@code
   * bins = counts.length} at most {@link #SMALL_BINS}, through {@link Tuning#HISTOGRAM_COPIES}
   * copies of {@code SMALL_BINS} counters in workgroup memory. The counters' count is a constant,
   * so that every workgroup-memory index is proven in bounds at compile time: a run's bin is masked
   * to {@code SMALL_BINS - 1}, which leaves it as it is (it is a value already tested in {@code [0,
   * bins)}).
   */
  @Kernel(workgroup = WORKGROUP)
  static void smallCounts(@Buffer(Access.READ) int[] values, int[] counts, int n, int bins) {
    int[] local = Gpu.sharedInts(COPIES * SMALL_BINS);
    int l = Gpu.localId(0);
    for (int s = l; s < COPIES * SMALL_BINS; s += WORKGROUP) {
      local[s] = 0;
    }
    Gpu.barrier();
    countRuns(
        values, counts, local, l / (WORKGROUP / COPIES) * SMALL_BINS, SMALL_BINS - 1, n, bins);
    Gpu.barrier();
    for (int b = l; b < SMALL_BINS; b += WORKGROUP) {
      if (b < bins) {
        int total = 0;
        for (int copy = 0; copy < COPIES; copy++) {
          total += local[copy * SMALL_BINS + b];
        }
        if (total != 0) {
          Gpu.atomicAdd(counts, b, total);
        }
      }
    }
  }

  /**
   * {@link #smallCounts} for any bins that fit: {@code slots = copies · bins} counters ({@code
   * copies} dividing the workgroup), whose indices are checked as the device runs (no linear proof
   * takes {@code mine + run < slots} of launch values).
   */
  @Kernel(workgroup = WORKGROUP)
  static void sharedCounts(
      @Buffer(Access.READ) int[] values, int[] counts, int n, int bins, int slots) {
    int[] local = Gpu.sharedInts(slots);
    int l = Gpu.localId(0);
    for (int s = l; s < slots; s += WORKGROUP) {
      local[s] = 0;
    }
    Gpu.barrier();
    int copies = slots / bins;
    countRuns(values, counts, local, l / (WORKGROUP / copies) * bins, -1, n, bins);
    Gpu.barrier();
    for (int b = l; b < bins; b += WORKGROUP) {
      int total = 0;
      for (int copy = 0; copy < copies; copy++) {
        total += local[copy * bins + b];
      }
      if (total != 0) {
        Gpu.atomicAdd(counts, b, total);
      }
    }
  }

  /**
   * This invocation's values, grid-stride, counted into the copy of the counters at {@code mine} of
   * {@code local}: each run of equal values at once, at {@code mine + (run & mask)}. A value
   * outside {@code [0, bins)} is added to {@code counts} at its own index, which faults.
   */
  private static void countRuns(
      int[] values, int[] counts, int[] local, int mine, int mask, int n, int bins) {
    int stride = Gpu.numWorkgroups(0) * WORKGROUP;
    int run = 0;
    int length = 0;
    for (int i = Gpu.globalId(0); i < n; i += stride) {
      int v = values[i];
      if (v < 0 || v >= bins) {
        Gpu.atomicAdd(counts, v, 1); // faults, naming the value
      } else {
        if (v != run) {
          if (length > 0) {
            Gpu.atomicAdd(local, mine + (run & mask), length);
          }
          run = v;
          length = 0;
        }
        length++;
      }
    }
    if (length > 0) {
      Gpu.atomicAdd(local, mine + (run & mask), length);
    }
  }

  /** {@link #sharedCounts} with the counters in the buffer itself. */
  @Kernel(workgroup = WORKGROUP)
  static void globalCounts(@Buffer(Access.READ) int[] values, int[] counts, int n) {
    int stride = Gpu.numWorkgroups(0) * WORKGROUP;
    int run = 0;
    int length = 0;
    for (int i = Gpu.globalId(0); i < n; i += stride) {
      int v = values[i];
      if (v != run) {
        if (length > 0) {
          Gpu.atomicAdd(counts, run, length);
        }
        run = v;
        length = 0;
      }
      length++;
    }
    if (length > 0) {
      Gpu.atomicAdd(counts, run, length);
    }
  }

  /** {@code counts[b] = 0}. */
  @Kernel(workgroup = WORKGROUP)
  static void zero(@Buffer(Access.WRITE) int[] counts) {
    int b = Gpu.globalId(0);
    if (b < counts.length) {
      counts[b] = 0;
    }
  }
}
