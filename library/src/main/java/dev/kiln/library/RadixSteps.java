package dev.kiln.library;

import dev.kiln.Gpu;

/**
 * The workgroup step of {@link RadixKernels#scatter}: an exclusive scan, over the workgroup's
 * {@link #SIZE} invocations, of each invocation's {@link #WORDS} longs of packed digit counts (16
 * bits a digit; sums stay below 2^16 within a tile, so no field carries into the next), in
 * workgroup memory (Hillis and Steele). Each call (kernels inline them) has an array of its own.
 */
final class RadixSteps {
  static final int SIZE = RadixKernels.WORKGROUP;
  static final int WORDS = RadixKernels.RADIX / 4;

  private RadixSteps() {}

  /**
   * Replaces {@code counts} by the sums of the counts of the invocations before this one, and sets
   * {@code totals} to the sums over the workgroup.
   */
  static void exclusive(long[] counts, long[] totals) {
    long[] p = Gpu.sharedLongs(WORDS * SIZE);
    int l = Gpu.localId(0);
    for (int j = 0; j < WORDS; j++) {
      p[j * SIZE + l] = counts[j];
    }
    Gpu.barrier();
    long[] before = new long[WORDS];
    for (int s = 1; s < SIZE; s <<= 1) {
      for (int j = 0; j < WORDS; j++) {
        before[j] = l >= s ? p[j * SIZE + l - s] : 0L;
      }
      Gpu.barrier();
      for (int j = 0; j < WORDS; j++) {
        p[j * SIZE + l] += before[j];
      }
      Gpu.barrier();
    }
    for (int j = 0; j < WORDS; j++) {
      counts[j] = l > 0 ? p[j * SIZE + l - 1] : 0L;
      totals[j] = p[j * SIZE + SIZE - 1];
    }
  }
}
