package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;
import dev.kiln.LongArray;

/**
 * Sorts of int, long and float keys, and of int keys with int values, ascending: a stable radix
 * sort, 4 bits a pass, 8 passes ({@link RadixKernels}). Ints and longs sort as {@code Arrays.sort}
 * does (a long as two int sorts, its low word then its high word, each moving the keys' places,
 * which it then gathers); floats in {@code Float.compare}'s order (-0.0 before 0.0, NaN last), as
 * {@code Arrays.sort(float[])} does, every NaN coming out as {@code Float.NaN}; with values, equal
 * keys keep their values in their first order (stable), as a stable sort of (key, value) pairs by
 * key does. Java arrays are copied to the device and back; device arrays are sorted in place there.
 *
 * <pre>{@code
 * int[] keys = ...;
 * int[] order = ...; // 0, 1, 2, ...
 * Sorts.sort(device, keys, order); // keys ascending; order[i]: where keys[i] was
 * }</pre>
 */
public final class Sorts {
  private static final int TILE = RadixKernels.TILE;
  private static final int PASSES = Integer.SIZE / Tuning.SORT_BITS;

  /** The most keys one sort takes: its tiles' ends stay within the int range. */
  private static final int MOST = Integer.MAX_VALUE - TILE;

  private Sorts() {}

  /**
   * Sorts {@code keys} ascending.
   *
   * @param device where it runs
   * @param keys the keys
   */
  public static void sort(Device device, int[] keys) {
    if (checked(keys.length) > 1) {
      try (IntArray onDevice = device.upload(keys)) {
        sort(device, onDevice);
        onDevice.download(keys);
      }
    }
  }

  /**
   * Sorts {@code keys} ascending in {@code Float.compare}'s order; NaNs become {@code Float.NaN}.
   *
   * @param device where it runs
   * @param keys the keys
   */
  public static void sort(Device device, float[] keys) {
    if (checked(keys.length) > 1) {
      try (FloatArray onDevice = device.upload(keys)) {
        sort(device, onDevice);
        onDevice.download(keys);
      }
    }
  }

  /**
   * Sorts {@code keys} ascending.
   *
   * @param device where it runs
   * @param keys the keys
   */
  public static void sort(Device device, long[] keys) {
    if (checked(keys.length) > 1) {
      try (LongArray onDevice = device.upload(keys)) {
        sort(device, onDevice);
        onDevice.download(keys);
      }
    }
  }

  /**
   * {@link #sort(Device, long[])} on a device array, in place.
   *
   * @param device where it runs and the array is
   * @param keys the keys
   */
  public static void sort(Device device, LongArray keys) {
    try (Scratch scratch = scratch(keys);
        Batch batch = device.batch()) {
      sort(batch, keys, scratch);
    }
  }

  /**
   * {@link #sort(Device, long[])} in a batch, in place: the keys' places sorted by their low words,
   * then stably by their high words, then the keys gathered.
   *
   * @param batch the batch that records it
   * @param keys the keys
   * @param scratch a scratch made for long keys of at least {@code keys}' length, open until the
   *     batch has run
   */
  public static void sort(Batch batch, LongArray keys, Scratch scratch) {
    int n = keys.length();
    fits(scratch, n, scratch.longs != null, "long keys");
    if (n <= 1) {
      return;
    }
    LongParts parts = scratch.longs;
    RadixKernelsKernels.splitLongs(batch, n, keys, parts.low, parts.high, parts.order, parts.copy);
    sort(batch, parts.low, parts.order, scratch); // the places in the low words' order
    RadixKernelsKernels.gatherInts(batch, n, parts.high, parts.order, parts.highInOrder);
    sort(batch, parts.highInOrder, parts.order, scratch); // stable: equal high words keep that
    RadixKernelsKernels.gatherLongs(batch, n, parts.copy, parts.order, keys);
  }

  /** A long sort's arrays: the keys' words, their places, and a copy of the keys to gather from. */
  private record LongParts(
      IntArray low, IntArray high, IntArray order, IntArray highInOrder, LongArray copy) {
    static LongParts on(Device device, int n) {
      return new LongParts(
          device.ints(n), device.ints(n), device.ints(n), device.ints(n), device.longs(n));
    }

    void close() {
      low.close();
      high.close();
      order.close();
      highInOrder.close();
      copy.close();
    }
  }

  /**
   * Sorts {@code keys} ascending and moves {@code values[i]} with {@code keys[i]}, stably.
   *
   * @param device where it runs
   * @param keys the keys
   * @param values as many values
   */
  public static void sort(Device device, int[] keys, int[] values) {
    checkValues(keys.length, values.length);
    if (checked(keys.length) > 1) {
      try (IntArray onDevice = device.upload(keys);
          IntArray valuesOnDevice = device.upload(values)) {
        sort(device, onDevice, valuesOnDevice);
        onDevice.download(keys);
        valuesOnDevice.download(values);
      }
    }
  }

  /**
   * The arrays a sort of up to {@code capacity} keys works in (the keys' and values' second copies,
   * the tiles' digit counts and their scan), on one device; close it after the batches that use it.
   */
  public static final class Scratch implements AutoCloseable {
    private final int capacity;
    private final IntArray otherKeys;
    private final IntArray otherValues;
    private final IntArray noValues;
    private final IntArray floatKeys;
    private final IntArray counts;
    private final IntArray starts;
    private final Scans.Scratch<IntArray> scan;
    private final LongParts longs;

    private Scratch(
        Device device, int capacity, boolean withValues, boolean floats, boolean longKeys) {
      this.capacity = checked(capacity);
      int tiles = Math.max(1, Math.ceilDiv(capacity, TILE));
      this.otherKeys = device.ints(Math.max(1, capacity));
      this.otherValues = device.ints(withValues ? Math.max(1, capacity) : 1);
      this.noValues = device.ints(1);
      this.floatKeys = device.ints(floats ? Math.max(1, capacity) : 1);
      this.counts = device.ints(RadixKernels.RADIX * tiles);
      this.starts = device.ints(RadixKernels.RADIX * tiles);
      this.scan = Scans.scratch(counts);
      this.longs = longKeys ? LongParts.on(device, Math.max(1, capacity)) : null;
    }

    /** Frees the arrays. */
    @Override
    public void close() {
      scan.close();
      if (longs != null) {
        longs.close();
      }
      for (IntArray array :
          new IntArray[] {otherKeys, otherValues, noValues, floatKeys, counts, starts}) {
        array.close();
      }
    }
  }

  /**
   * A scratch for sorts of up to {@code keys}' length, on its device.
   *
   * @param keys the keys to sort
   * @return the scratch
   */
  public static Scratch scratch(IntArray keys) {
    return new Scratch(keys.device(), keys.length(), false, false, false);
  }

  /**
   * A scratch for sorts of up to {@code keys}' length with values, on its device.
   *
   * @param keys the keys to sort
   * @param values their values
   * @return the scratch
   */
  public static Scratch scratch(IntArray keys, IntArray values) {
    return new Scratch(keys.device(), keys.length(), true, false, false);
  }

  /**
   * A scratch for sorts of up to {@code keys}' length, on its device.
   *
   * @param keys the keys to sort
   * @return the scratch
   */
  public static Scratch scratch(FloatArray keys) {
    return new Scratch(keys.device(), keys.length(), false, true, false);
  }

  /**
   * A scratch for sorts of up to {@code keys}' length, on its device.
   *
   * @param keys the keys to sort
   * @return the scratch
   */
  public static Scratch scratch(LongArray keys) {
    return new Scratch(keys.device(), keys.length(), true, false, true);
  }

  /**
   * {@link #sort(Device, int[])} on a device array, in place.
   *
   * @param device where it runs and the array is
   * @param keys the keys
   */
  public static void sort(Device device, IntArray keys) {
    try (Scratch scratch = scratch(keys);
        Batch batch = device.batch()) {
      sort(batch, keys, scratch);
    }
  }

  /**
   * {@link #sort(Device, float[])} on a device array, in place.
   *
   * @param device where it runs and the array is
   * @param keys the keys
   */
  public static void sort(Device device, FloatArray keys) {
    try (Scratch scratch = scratch(keys);
        Batch batch = device.batch()) {
      sort(batch, keys, scratch);
    }
  }

  /**
   * {@link #sort(Device, int[], int[])} on device arrays, in place.
   *
   * @param device where it runs and the arrays are
   * @param keys the keys
   * @param values as many values
   */
  public static void sort(Device device, IntArray keys, IntArray values) {
    try (Scratch scratch = scratch(keys, values);
        Batch batch = device.batch()) {
      sort(batch, keys, values, scratch);
    }
  }

  /**
   * {@link #sort(Device, int[])} in a batch, in place.
   *
   * @param batch the batch that records it
   * @param keys the keys
   * @param scratch a scratch for at least {@code keys}' length, open until the batch has run
   */
  public static void sort(Batch batch, IntArray keys, Scratch scratch) {
    radix(batch, keys, null, scratch);
  }

  /**
   * {@link #sort(Device, float[])} in a batch, in place.
   *
   * @param batch the batch that records it
   * @param keys the keys
   * @param scratch a scratch made for float keys of at least {@code keys}' length, open until the
   *     batch has run
   */
  public static void sort(Batch batch, FloatArray keys, Scratch scratch) {
    int n = keys.length();
    fits(scratch, n, scratch.floatKeys.length() >= n, "float keys");
    if (n > 1) {
      IntArray ints = scratch.floatKeys;
      RadixKernelsKernels.floatKeys(batch, n, keys, ints);
      radix(batch, ints, null, scratch);
      RadixKernelsKernels.keyFloats(batch, n, ints, keys);
    }
  }

  /**
   * {@link #sort(Device, int[], int[])} in a batch, in place.
   *
   * @param batch the batch that records it
   * @param keys the keys
   * @param values as many values
   * @param scratch a scratch made for keys with values of at least {@code keys}' length, open until
   *     the batch has run
   */
  public static void sort(Batch batch, IntArray keys, IntArray values, Scratch scratch) {
    checkValues(keys.length(), values.length());
    radix(batch, keys, values, scratch);
  }

  /** Records the passes over {@code keys} (and {@code values}, where not null). */
  private static void radix(Batch batch, IntArray keys, IntArray values, Scratch scratch) {
    int n = keys.length();
    boolean withValues = values != null;
    fits(scratch, n, !withValues || scratch.otherValues.length() >= n, "values");
    if (n <= 1) {
      return;
    }
    int invocations = Math.ceilDiv(n, TILE) * RadixKernels.WORKGROUP;
    IntArray from = keys;
    IntArray to = scratch.otherKeys;
    IntArray fromValues = withValues ? values : scratch.noValues;
    IntArray toValues = scratch.otherValues;
    for (int pass = 0; pass < PASSES; pass++) {
      int shift = Tuning.SORT_BITS * pass;
      RadixKernelsKernels.digitCounts(batch, invocations, from, scratch.counts, n, shift);
      Scans.exclusive(batch, scratch.counts, scratch.starts, scratch.scan);
      RadixKernelsKernels.scatter(
          batch,
          invocations,
          from,
          to,
          fromValues,
          toValues,
          scratch.starts,
          n,
          shift,
          withValues ? 1 : 0);
      IntArray swap = from;
      from = to;
      to = swap;
      swap = fromValues;
      fromValues = toValues;
      toValues = swap;
    }
    // an even number of passes: the keys and values end where they began
  }

  /** Checks that {@code scratch} was made for {@code n} keys and, where {@code kind}, its kind. */
  private static void fits(Scratch scratch, int n, boolean kind, String what) {
    if (scratch.capacity < n || !kind) {
      throw new IllegalArgumentException(
          "the scratch was made for "
              + scratch.capacity
              + " keys"
              + (kind ? "" : " without " + what)
              + "; this sort has "
              + n);
    }
  }

  private static void checkValues(int keys, int values) {
    if (keys != values) {
      throw new IllegalArgumentException(keys + " keys and " + values + " values: one each");
    }
  }

  private static int checked(int n) {
    if (n > MOST) {
      throw new IllegalArgumentException(n + " keys: a sort takes at most " + MOST);
    }
    return n;
  }
}
