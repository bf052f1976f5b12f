package dev.kiln.library;

import dev.kiln.Gpu;

/**
 * The workgroup step of {@link RadixKernels#scatter}: an exclusive scan, over the workgroup's
 * {@link #SIZE} invocations, of each invocation's {@link #WORDS} ints of packed digit counts (16
 * bits a digit, two digits an int; sums stay below 2^16 within a tile, so no field carries into the
 * next), in workgroup memory (Hillis and Steele) that the kernel declares and uses again after a
 * barrier.
 */
final class RadixSteps {
  static final int SIZE = RadixKernels.WORKGROUP;
  static final int WORDS = RadixKernels.RADIX / 2;

  private RadixSteps() {}

  /** The digit count field of {@code d} in packed counts {@code words}. */
  static int field(int[] words, int d) {
    return (words[d >> 1] >>> (16 * (d & 1))) & 0xffff;
  }

  /** Adds one to the field of digit {@code d} in packed counts {@code words}. */
  static void count(int[] words, int d) {
    words[d >> 1] += 1 << (16 * (d & 1));
  }

  /**
   * Replaces {@code counts} by the sums of the counts of the invocations before this one, and sets
   * {@code totals} to the sums over the workgroup, through {@code p} (at least {@link #WORDS} ·
   * {@link #SIZE} elements of workgroup memory).
   */
  static void exclusive(int[] p, int[] counts, int[] totals) {
    int l = Gpu.localId(0);
    for (int j = 0; j < WORDS; j++) {
      p[j * SIZE + l] = counts[j];
    }
    Gpu.barrier();
    int[] before = new int[WORDS];
    for (int s = 1; s < SIZE; s <<= 1) {
      for (int j = 0; j < WORDS; j++) {
        before[j] = l >= s ? p[j * SIZE + l - s] : 0;
      }
      Gpu.barrier();
      for (int j = 0; j < WORDS; j++) {
        p[j * SIZE + l] += before[j];
      }
      Gpu.barrier();
    }
    for (int j = 0; j < WORDS; j++) {
      counts[j] = l > 0 ? p[j * SIZE + l - 1] : 0;
      totals[j] = p[j * SIZE + SIZE - 1];
    }
  }
}
