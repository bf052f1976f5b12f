package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;

/**
 * Sorts of int and float keys, and of int keys with int values, ascending: a stable radix sort, 4
 * bits a pass, 8 passes ({@link RadixKernels}). Ints sort as {@code Arrays.sort(int[])} does;
 * floats in {@code Float.compare}'s order (-0.0 before 0.0, NaN last), as {@code
 * Arrays.sort(float[])} does, every NaN coming out as {@code Float.NaN}; with values, equal keys
 * keep their values in their first order (stable), as a stable sort of (key, value) pairs by key
 * does. Java arrays are copied to the device and back; device arrays are sorted in place there.
 *
 * <pre>{@code
 * int[] keys = ...;
 * int[] order = ...; // 0, 1, 2, ...
 * Sorts.sort(device, keys, order); // keys ascending; order[i]: where keys[i] was
 * }</pre>
 */
public final class Sorts {
  private static final int TILE = RadixKernels.TILE;
  private static final int PASSES = Integer.SIZE / 4;

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
   * {@link #sort(Device, int[])} on a device array, in place.
   *
   * @param device where it runs and the array is
   * @param keys the keys
   */
  public static void sort(Device device, IntArray keys) {
    radix(device, keys, null);
  }

  /**
   * {@link #sort(Device, float[])} on a device array, in place.
   *
   * @param device where it runs and the array is
   * @param keys the keys
   */
  public static void sort(Device device, FloatArray keys) {
    int n = checked(keys.length());
    if (n > 1) {
      try (IntArray ints = device.ints(n)) {
        RadixKernelsKernels.floatKeys(device, n, keys, ints);
        radix(device, ints, null);
        RadixKernelsKernels.keyFloats(device, n, ints, keys);
      }
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
    checkValues(keys.length(), values.length());
    radix(device, keys, values);
  }

  /** The passes over {@code keys} (and {@code values}, where not null), in one batch. */
  private static void radix(Device device, IntArray keys, IntArray values) {
    int n = checked(keys.length());
    if (n <= 1) {
      return;
    }
    int tiles = Math.ceilDiv(n, TILE);
    int invocations = tiles * RadixKernels.WORKGROUP;
    boolean withValues = values != null;
    try (IntArray otherKeys = device.ints(n);
        IntArray noValues = device.ints(1); // read by no launch: withValues is 0 then
        IntArray otherValues = device.ints(withValues ? n : 1);
        IntArray counts = device.ints(RadixKernels.RADIX * tiles);
        IntArray starts = device.ints(RadixKernels.RADIX * tiles);
        Scans.Scratch<IntArray> scan = Scans.scratch(counts);
        Batch batch = device.batch()) {
      IntArray from = keys;
      IntArray to = otherKeys;
      IntArray fromValues = withValues ? values : noValues;
      IntArray toValues = otherValues;
      for (int pass = 0; pass < PASSES; pass++) {
        int shift = 4 * pass;
        RadixKernelsKernels.digitCounts(batch, invocations, from, counts, n, shift);
        Scans.exclusive(batch, counts, starts, scan);
        RadixKernelsKernels.scatter(
            batch,
            invocations,
            from,
            to,
            fromValues,
            toValues,
            starts,
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
