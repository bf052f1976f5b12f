package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Inclusive prefix sums within each workgroup of 256: workgroup memory and barriers. */
public final class Scan {
  static final int WORKGROUP = 256;

  private Scan() {}

  /**
   * Replaces each element by the sum of its workgroup's elements up to and including it (Hillis and
   * Steele), and writes each workgroup's total to {@code totals}.
   */
  @Kernel(workgroup = WORKGROUP)
  static void inclusiveScan(int[] data, int[] totals) {
    int[] tile = Gpu.sharedInts(WORKGROUP);
    int i = Gpu.globalId(0);
    int local = Gpu.localId(0);
    tile[local] = i < data.length ? data[i] : 0;
    Gpu.barrier();
    for (int offset = 1; offset < WORKGROUP; offset <<= 1) {
      int before = local >= offset ? tile[local - offset] : 0;
      Gpu.barrier();
      tile[local] += before;
      Gpu.barrier();
    }
    if (i < data.length) {
      data[i] = tile[local];
    }
    if (local == WORKGROUP - 1) {
      totals[Gpu.workgroupId(0)] = tile[local];
    }
  }
}
