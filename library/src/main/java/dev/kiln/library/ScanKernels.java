package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Scans}: a scan that reduces, then scans. A tile is {@link #TILE}
 * consecutive elements, {@link #ITEMS} to each of the workgroup's {@link #WORKGROUP} invocations
 * (invocation {@code l} holds elements {@code 8l .. 8l + 7} of its tile). {@code *Totals} writes
 * each tile's total; {@link Scans} scans the totals into each tile's offset (the same kernels, one
 * level up); {@code *Tiles} then scans each tile from its offset. Within a tile, invocation {@code
 * l} starts from the offset plus the sum of the invocations before it ({@link ScanSteps}) and adds
 * its elements in order. Elements past {@code n} count as 0 and are not written.
 */
final class ScanKernels {
  static final int WORKGROUP = ScanSteps.SIZE;
  static final int ITEMS = Tuning.SCAN_ITEMS;
  static final int TILE = WORKGROUP * ITEMS;

  private ScanKernels() {}

  /** {@code totals[w]}: the sum of tile {@code w} of {@code in}'s first {@code n} elements. */
  @Kernel(workgroup = WORKGROUP)
  static void intTotals(@Buffer(Access.READ) int[] in, @Buffer(Access.WRITE) int[] totals, int n) {
    int first = Gpu.workgroupId(0) * TILE + Gpu.localId(0) * ITEMS;
    int[] mine = new int[ITEMS];
    int run = loadInts(in, first, n, mine);
    int before = ScanSteps.exclusiveInts(run);
    if (Gpu.localId(0) == WORKGROUP - 1) {
      totals[Gpu.workgroupId(0)] = before + run;
    }
  }

  /**
   * {@code out}: {@code in}'s first {@code n} elements scanned, tile {@code w} from {@code
   * offsets[w]} (from 0 where {@code offsetsGiven} is 0); inclusive, or exclusive where {@code
   * exclusive} is not 0.
   */
  @Kernel(workgroup = WORKGROUP)
  static void intTiles(
      @Buffer(Access.READ) int[] in,
      @Buffer(Access.WRITE) int[] out,
      @Buffer(Access.READ) int[] offsets,
      int n,
      int exclusive,
      int offsetsGiven) {
    int w = Gpu.workgroupId(0);
    int first = w * TILE + Gpu.localId(0) * ITEMS;
    int[] mine = new int[ITEMS];
    int run = loadInts(in, first, n, mine);
    int before = ScanSteps.exclusiveInts(run);
    int carry = before + (offsetsGiven != 0 ? offsets[w] : 0);
    for (int k = 0; k < ITEMS; k++) {
      int v = mine[k];
      mine[k] = exclusive != 0 ? carry : carry + v;
      carry += v;
    }
    storeInts(mine, out, first, n);
  }

  /** {@link #intTotals} for longs. */
  @Kernel(workgroup = WORKGROUP)
  static void longTotals(
      @Buffer(Access.READ) long[] in, @Buffer(Access.WRITE) long[] totals, int n) {
    int first = Gpu.workgroupId(0) * TILE + Gpu.localId(0) * ITEMS;
    long run = 0;
    for (int k = 0; k < ITEMS && first + k < n; k++) {
      run += in[first + k];
    }
    long before = ScanSteps.exclusiveLongs(run);
    if (Gpu.localId(0) == WORKGROUP - 1) {
      totals[Gpu.workgroupId(0)] = before + run;
    }
  }

  /** {@link #intTiles} for longs. */
  @Kernel(workgroup = WORKGROUP)
  static void longTiles(
      @Buffer(Access.READ) long[] in,
      @Buffer(Access.WRITE) long[] out,
      @Buffer(Access.READ) long[] offsets,
      int n,
      int exclusive,
      int offsetsGiven) {
    int w = Gpu.workgroupId(0);
    int first = w * TILE + Gpu.localId(0) * ITEMS;
    long[] mine = new long[ITEMS];
    long run = 0;
    for (int k = 0; k < ITEMS && first + k < n; k++) {
      mine[k] = in[first + k];
      run += mine[k];
    }
    long before = ScanSteps.exclusiveLongs(run);
    long carry = before + (offsetsGiven != 0 ? offsets[w] : 0L);
    for (int k = 0; k < ITEMS && first + k < n; k++) {
      long v = mine[k];
      out[first + k] = exclusive != 0 ? carry : carry + v;
      carry += v;
    }
  }

  /** {@link #intTotals} for floats, in Java's float arithmetic in the order above. */
  @Kernel(workgroup = WORKGROUP)
  static void floatTotals(
      @Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] totals, int n) {
    int first = Gpu.workgroupId(0) * TILE + Gpu.localId(0) * ITEMS;
    float[] mine = new float[ITEMS];
    float run = loadFloats(in, first, n, mine);
    float before = ScanSteps.exclusiveFloats(run);
    if (Gpu.localId(0) == WORKGROUP - 1) {
      totals[Gpu.workgroupId(0)] = before + run;
    }
  }

  /** {@link #intTiles} for floats. */
  @Kernel(workgroup = WORKGROUP)
  static void floatTiles(
      @Buffer(Access.READ) float[] in,
      @Buffer(Access.WRITE) float[] out,
      @Buffer(Access.READ) float[] offsets,
      int n,
      int exclusive,
      int offsetsGiven) {
    int w = Gpu.workgroupId(0);
    int first = w * TILE + Gpu.localId(0) * ITEMS;
    float[] mine = new float[ITEMS];
    float run = loadFloats(in, first, n, mine);
    float before = ScanSteps.exclusiveFloats(run);
    float carry = (offsetsGiven != 0 ? offsets[w] : 0f) + before;
    for (int k = 0; k < ITEMS; k++) {
      float v = mine[k];
      mine[k] = exclusive != 0 ? carry : carry + v;
      carry += v;
    }
    storeFloats(mine, out, first, n);
  }

  /**
   * Reads this invocation's {@link #ITEMS} elements from {@code first} into {@code mine} (a 32-byte
   * copy where all lie below {@code n}; 0 past it) and returns their sum in order.
   */
  private static int loadInts(int[] in, int first, int n, int[] mine) {
    if (first <= n - ITEMS) {
      System.arraycopy(in, first, mine, 0, ITEMS);
    } else {
      for (int k = 0; k < ITEMS; k++) {
        mine[k] = first + k < n ? in[first + k] : 0;
      }
    }
    int run = 0;
    for (int k = 0; k < ITEMS; k++) {
      run += mine[k];
    }
    return run;
  }

  /** Writes {@code mine} to {@code out} from {@code first}, the elements below {@code n}. */
  private static void storeInts(int[] mine, int[] out, int first, int n) {
    if (first <= n - ITEMS) {
      System.arraycopy(mine, 0, out, first, ITEMS);
    } else {
      for (int k = 0; k < ITEMS && first + k < n; k++) {
        out[first + k] = mine[k];
      }
    }
  }

  /** {@link #loadInts} for floats, summed in order in Java's float arithmetic. */
  private static float loadFloats(float[] in, int first, int n, float[] mine) {
    if (first <= n - ITEMS) {
      System.arraycopy(in, first, mine, 0, ITEMS);
    } else {
      for (int k = 0; k < ITEMS; k++) {
        mine[k] = first + k < n ? in[first + k] : 0f;
      }
    }
    float run = 0f;
    for (int k = 0; k < ITEMS; k++) {
      run += mine[k];
    }
    return run;
  }

  /** {@link #storeInts} for floats. */
  private static void storeFloats(float[] mine, float[] out, int first, int n) {
    if (first <= n - ITEMS) {
      System.arraycopy(mine, 0, out, first, ITEMS);
    } else {
      for (int k = 0; k < ITEMS && first + k < n; k++) {
        out[first + k] = mine[k];
      }
    }
  }
}
