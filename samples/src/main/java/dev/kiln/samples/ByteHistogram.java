package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The fast 256-bin histogram of the values' low bytes, written as plain Java: a small persistent
 * grid whose invocations each walk many values (grid-stride, so that every load is coalesced),
 * counts privatized per workgroup in {@link #COPIES} copies (a quarter of the subgroups share one,
 * which spreads contention on a popular bin), and runs of equal bins within an invocation added
 * as one atomic (which is what makes skewed input cheap). Launch it on a fixed grid, a few
 * workgroups per multiprocessor, not one invocation per value.
 */
public final class ByteHistogram {
  public static final int BINS = 256;
  static final int COPIES = 4;
  static final int WORKGROUP = 256;

  private ByteHistogram() {}

  /** Adds the count of each low byte of {@code values} to {@code bins} (256 of them). */
  @Kernel(workgroup = WORKGROUP)
  static void count(@Buffer(Access.READ) int[] values, int[] bins) {
    int[] counts = Gpu.sharedInts(COPIES * BINS);
    int l = Gpu.localId(0);
    for (int copy = 0; copy < COPIES; copy++) {
      counts[copy * BINS + l] = 0;
    }
    Gpu.barrier();
    int mine = l / (WORKGROUP / COPIES) * BINS;
    int stride = Gpu.numWorkgroups(0) * WORKGROUP;
    int run = 0;
    int length = 0;
    for (int i = Gpu.globalId(0); i < values.length; i += stride) {
      int bin = values[i] & (BINS - 1);
      if (bin != run) {
        if (length > 0) {
          Gpu.atomicAdd(counts, mine + run, length);
        }
        run = bin;
        length = 0;
      }
      length++;
    }
    if (length > 0) {
      Gpu.atomicAdd(counts, mine + run, length);
    }
    Gpu.barrier();
    int total = 0;
    for (int copy = 0; copy < COPIES; copy++) {
      total += counts[copy * BINS + l];
    }
    if (total != 0) {
      Gpu.atomicAdd(bins, l, total);
    }
  }
}
