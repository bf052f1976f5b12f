package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Sorts}: a stable least-significant-digit radix sort of int keys, 4 bits
 * a pass. A tile is {@link #TILE} keys, {@link #ITEMS} consecutive ones to each of the workgroup's
 * {@link #WORKGROUP} invocations. {@link #digitCounts} counts each tile's keys per digit into a
 * digit-major table ({@code counts[d · tiles + t]}), whose exclusive scan ({@link Scans}) is where
 * each tile's keys of each digit start; {@link #scatter} writes each key there plus its rank among
 * the tile's keys of its digit before it, which keeps equal digits in order. The digit of a key is
 * {@code ((key ^ flip) >>> shift) & 15}: {@code flip} is the sign bit, so that the last pass orders
 * negative keys first.
 */
final class RadixKernels {
  static final int WORKGROUP = Tuning.SORT_WORKGROUP;
  static final int ITEMS = Tuning.SORT_ITEMS;
  static final int TILE = WORKGROUP * ITEMS;
  static final int RADIX = 1 << Tuning.SORT_BITS;

  /**
   * Ints of a scatter's workgroup memory that holds the scan of its digit counts ({@link
   * RadixSteps}) and then its tile: within the 16 KiB Vulkan promises, where one array each would
   * not be.
   */
  static final int STAGED =
      TILE > RadixSteps.WORDS * RadixSteps.SIZE ? TILE : RadixSteps.WORDS * RadixSteps.SIZE;

  /** The sign bit: digits of the key with it flipped order signed ints. */
  static final int FLIP = 0x8000_0000;

  private RadixKernels() {}

  /** {@code counts[d · tiles + t]}: the keys of tile {@code t} whose digit is {@code d}. */
  @Kernel(workgroup = WORKGROUP)
  static void digitCounts(
      @Buffer(Access.READ) int[] keys, @Buffer(Access.WRITE) int[] counts, int n, int shift) {
    int[] local = Gpu.sharedInts(RADIX);
    int l = Gpu.localId(0);
    int t = Gpu.workgroupId(0);
    if (l < RADIX) {
      local[l] = 0;
    }
    Gpu.barrier();
    for (int k = 0; k < ITEMS; k++) {
      int i = t * TILE + k * WORKGROUP + l;
      if (i < n) {
        Gpu.atomicAdd(local, digit(keys[i], shift), 1);
      }
    }
    Gpu.barrier();
    if (l < RADIX) {
      counts[l * Gpu.numWorkgroups(0) + t] = local[l];
    }
  }

  /**
   * Writes each of the first {@code n} keys (and its value, where {@code withValues} is not 0) to
   * {@code starts[d · tiles + t]} plus its rank among the keys of digit {@code d} before it in its
   * tile {@code t}. The tile is put in that order in workgroup memory first (each digit's keys
   * after those of the digits below it), and then written out slot by slot across the workgroup, so
   * that consecutive invocations write consecutive keys of a digit: whole runs of the output, where
   * each invocation writing its own keys would scatter single words over the digits' runs.
   */
  @Kernel(workgroup = WORKGROUP)
  static void scatter(
      @Buffer(Access.READ) int[] keys,
      @Buffer(Access.WRITE) int[] out,
      @Buffer(Access.READ) int[] values,
      @Buffer(Access.WRITE) int[] outValues,
      @Buffer(Access.READ) int[] starts,
      int n,
      int shift,
      int withValues) {
    int[] staged = Gpu.sharedInts(STAGED); // the scan's words, then the tile's keys and values
    int[] digitStarts = Gpu.sharedInts(RADIX);
    int t = Gpu.workgroupId(0);
    int tiles = Gpu.numWorkgroups(0);
    int l = Gpu.localId(0);
    int first = t * TILE + l * ITEMS;
    int[] mine = new int[ITEMS];
    if (first <= n - ITEMS) {
      System.arraycopy(keys, first, mine, 0, ITEMS);
    } else {
      for (int k = 0; k < ITEMS && first + k < n; k++) {
        mine[k] = keys[first + k];
      }
    }
    // how many of this invocation's keys have each digit, packed (RadixSteps)
    int[] seen = new int[RadixSteps.WORDS];
    for (int k = 0; k < ITEMS && first + k < n; k++) {
      RadixSteps.count(seen, digit(mine[k], shift));
    }
    int[] totals = new int[RadixSteps.WORDS];
    // seen: the counts of the invocations before; totals: the tile's
    RadixSteps.exclusive(staged, seen, totals);
    if (l < RADIX) {
      int below = 0;
      for (int d = 0; d < RADIX; d++) {
        if (d < l) {
          below += RadixSteps.field(totals, d);
        }
      }
      digitStarts[l] = below;
    }
    Gpu.barrier(); // the scan's last reads of staged are done, and digitStarts written
    int[] slots = new int[ITEMS];
    for (int k = 0; k < ITEMS; k++) {
      if (first + k < n) {
        int d = digit(mine[k], shift);
        slots[k] = digitStarts[d] + RadixSteps.field(seen, d);
        RadixSteps.count(seen, d);
        staged[slots[k]] = mine[k];
      }
    }
    Gpu.barrier();
    int count = Math.min(TILE, n - t * TILE);
    int[] to = new int[ITEMS];
    for (int j = 0; j < ITEMS; j++) {
      int i = j * WORKGROUP + l;
      if (i < count) {
        int key = staged[i];
        int d = digit(key, shift);
        to[j] = starts[d * tiles + t] + i - digitStarts[d];
        out[to[j]] = key;
      }
    }
    if (withValues != 0) { // the values through the same slots
      Gpu.barrier();
      for (int k = 0; k < ITEMS; k++) {
        if (first + k < n) {
          staged[slots[k]] = values[first + k];
        }
      }
      Gpu.barrier();
      for (int j = 0; j < ITEMS; j++) {
        int i = j * WORKGROUP + l;
        if (i < count) {
          outValues[to[j]] = staged[i];
        }
      }
    }
  }

  /** The digit of {@code key} a pass from bit {@code shift} sorts by, its sign bit flipped. */
  private static int digit(int key, int shift) {
    return ((key ^ FLIP) >>> shift) & (RADIX - 1);
  }

  /**
   * {@code keys[i]}: {@code in[i]}'s bits ({@code Float.floatToIntBits}, NaN made one), those of a
   * negative float with all but the sign flipped, so that int order is {@code Float.compare}'s.
   */
  @Kernel(workgroup = WORKGROUP)
  static void floatKeys(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) int[] keys) {
    int i = Gpu.globalId(0);
    if (i < in.length) {
      int bits = Float.floatToIntBits(in[i]);
      keys[i] = bits < 0 ? bits ^ 0x7fff_ffff : bits;
    }
  }

  /** The floats of {@link #floatKeys}'s keys (the map is its own inverse). */
  @Kernel(workgroup = WORKGROUP)
  static void keyFloats(@Buffer(Access.READ) int[] keys, @Buffer(Access.WRITE) float[] out) {
    int i = Gpu.globalId(0);
    if (i < keys.length) {
      int key = keys[i];
      out[i] = Float.intBitsToFloat(key < 0 ? key ^ 0x7fff_ffff : key);
    }
  }

  /**
   * Splits each long key into the two int keys its sort takes, low word first ({@code low}: its
   * bits with the sign flipped, so that signed order is the word's unsigned order; {@code high}:
   * the upper word as it is), numbers the keys ({@code order[i] = i}) and copies them, for the
   * gather that ends the sort.
   */
  @Kernel(workgroup = WORKGROUP)
  static void splitLongs(
      @Buffer(Access.READ) long[] keys,
      @Buffer(Access.WRITE) int[] low,
      @Buffer(Access.WRITE) int[] high,
      @Buffer(Access.WRITE) int[] order,
      @Buffer(Access.WRITE) long[] copy) {
    int i = Gpu.globalId(0);
    if (i < keys.length) {
      long key = keys[i];
      low[i] = (int) key ^ FLIP;
      high[i] = (int) (key >> 32);
      order[i] = i;
      copy[i] = key;
    }
  }

  /** {@code out[i] = in[order[i]]}. */
  @Kernel(workgroup = WORKGROUP)
  static void gatherInts(
      @Buffer(Access.READ) int[] in,
      @Buffer(Access.READ) int[] order,
      @Buffer(Access.WRITE) int[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = in[order[i]];
    }
  }

  /** {@code out[i] = in[order[i]]}. */
  @Kernel(workgroup = WORKGROUP)
  static void gatherLongs(
      @Buffer(Access.READ) long[] in,
      @Buffer(Access.READ) int[] order,
      @Buffer(Access.WRITE) long[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = in[order[i]];
    }
  }
}
