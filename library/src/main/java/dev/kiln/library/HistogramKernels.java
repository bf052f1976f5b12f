package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Histograms}: a persistent grid whose invocations walk the values
 * grid-stride (every load coalesced) and add each run of equal values within an invocation as one
 * atomic (which makes skewed input cheap). {@link #sharedCounts} counts into workgroup memory
 * first, in copies that groups of subgroups share (contention on a popular bin spreads), then adds
 * each bin's total to the buffer; {@link #globalCounts} counts straight into the buffer, for bins
 * past workgroup memory. A value outside {@code [0, counts.length)} is added to {@code counts} at
 * its own index, which faults as Java's {@code counts[v]++} would.
 */
final class HistogramKernels {
  static final int WORKGROUP = Tuning.HISTOGRAM_WORKGROUP;

  private HistogramKernels() {}

  /**
   * Adds to {@code counts[b]} the number of the first {@code n} values equal to {@code b}, {@code
   * bins = counts.length}, through {@code slots = copies · bins} counters in workgroup memory
   * ({@code copies} dividing the workgroup).
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
    int mine = l / (WORKGROUP / copies) * bins;
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
            Gpu.atomicAdd(local, mine + run, length);
          }
          run = v;
          length = 0;
        }
        length++;
      }
    }
    if (length > 0) {
      Gpu.atomicAdd(local, mine + run, length);
    }
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
