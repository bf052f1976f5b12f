package dev.kiln.library;

import dev.kiln.Gpu;

/**
 * Exclusive scans of one value per invocation over a workgroup of {@link #SIZE}, in workgroup
 * memory (Hillis and Steele: {@code p[l] += p[l - s]} for {@code s = 1, 2, ..., 128}, barriers
 * around each step): invocation {@code l} gets the sum of the values of invocations {@code 0 .. l -
 * 1}, 0 for the first. Each call (kernels inline them) has an array of its own.
 */
final class ScanSteps {
  /** The workgroup size of the library's scan kernels. */
  static final int SIZE = Tuning.SCAN_WORKGROUP;

  private ScanSteps() {}

  /** The sum of the values of the invocations before this one. */
  static int exclusiveInts(int value) {
    int[] p = Gpu.sharedInts(SIZE);
    int l = Gpu.localId(0);
    p[l] = value;
    Gpu.barrier();
    for (int s = 1; s < SIZE; s <<= 1) {
      int before = l >= s ? p[l - s] : 0;
      Gpu.barrier();
      p[l] += before;
      Gpu.barrier();
    }
    return l > 0 ? p[l - 1] : 0;
  }

  /** {@link #exclusiveInts} for longs. */
  static long exclusiveLongs(long value) {
    long[] p = Gpu.sharedLongs(SIZE);
    int l = Gpu.localId(0);
    p[l] = value;
    Gpu.barrier();
    for (int s = 1; s < SIZE; s <<= 1) {
      long before = l >= s ? p[l - s] : 0L;
      Gpu.barrier();
      p[l] += before;
      Gpu.barrier();
    }
    return l > 0 ? p[l - 1] : 0L;
  }

  /**
   * {@link #exclusiveInts} for floats: each step's sum {@code p[l] + p[l - s]} rounded as Java's.
   */
  static float exclusiveFloats(float value) {
    float[] p = Gpu.sharedFloats(SIZE);
    int l = Gpu.localId(0);
    p[l] = value;
    Gpu.barrier();
    for (int s = 1; s < SIZE; s <<= 1) {
      float before = l >= s ? p[l - s] : 0f;
      Gpu.barrier();
      p[l] += before;
      Gpu.barrier();
    }
    return l > 0 ? p[l - 1] : 0f;
  }
}
