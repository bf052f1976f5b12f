package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceArray;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;
import dev.kiln.LongArray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Prefix sums of int, long and float arrays: {@code inclusive} writes {@code out[i] = in[0] + ... +
 * in[i]}, {@code exclusive} writes {@code out[i] = in[0] + ... + in[i - 1]} (0 for {@code i = 0}),
 * for every {@code i} below {@code in}'s length. Ints and longs wrap as Java's do, so every order
 * gives Java's loop's bits. Floats are summed in the order below, in Java's float arithmetic: the
 * same bits on every device and on the CPU backend, within the reassociation bound of Java's loop
 * ({@code depth · 2^-24 · Σ|in[j]|}, depth about 30 additions), not its bits.
 *
 * <p>Order: the array is cut into tiles of 2048; invocation {@code l} of a tile's 256 holds
 * elements {@code 8l .. 8l + 7}. Element {@code 8l + k} of tile {@code t} is {@code ((offset_t +
 * before_l) + in[8l]) + ... + in[8l + k]} (before its own element for {@code exclusive}), where
 * {@code before_l} is the Hillis–Steele exclusive scan of the invocations' 8-element sums and
 * {@code offset_t} the same scan, one level up, of the tiles' totals.
 *
 * <p>Java arrays are copied to the device and back; device arrays stay there, and {@code in} and
 * {@code out} must then be two arrays (the launch refuses one array for both). In a {@link Batch},
 * the tiles' totals need a {@link Scratch} that outlives the batch:
 *
 * <pre>{@code
 * int[] counts = ...;
 * int[] starts = new int[counts.length];
 * Scans.exclusive(device, counts, starts); // starts[i] = counts[0] + ... + counts[i - 1]
 *
 * try (Scans.Scratch<IntArray> scratch = Scans.scratch(in);
 *     Batch batch = device.batch()) {
 *   Scans.inclusive(batch, in, out, scratch);
 * }
 * }</pre>
 */
public final class Scans {
  private static final int TILE = ScanKernels.TILE;

  /** The most elements one scan takes: its tiles' ends stay within the int range. */
  private static final int MOST = Integer.MAX_VALUE - TILE;

  private static final Steps<IntArray> INTS =
      new Steps<>(ScanKernelsKernels::intTotals, ScanKernelsKernels::intTiles, Device::ints);
  private static final Steps<LongArray> LONGS =
      new Steps<>(ScanKernelsKernels::longTotals, ScanKernelsKernels::longTiles, Device::longs);
  private static final Steps<FloatArray> FLOATS =
      new Steps<>(ScanKernelsKernels::floatTotals, ScanKernelsKernels::floatTiles, Device::floats);

  private Scans() {}

  /**
   * The tiles' totals and offsets of a scan of up to {@code capacity} elements, level by level, on
   * one device; close it after the batches that use it.
   *
   * @param <S> the device arrays' type, the scanned arrays'
   */
  public static final class Scratch<S extends DeviceArray<?, S>> implements AutoCloseable {
    private final Steps<S> steps;
    private final int capacity;
    private final List<S> levels = new ArrayList<>();

    private Scratch(Steps<S> steps, Device device, int capacity) {
      this.steps = steps;
      this.capacity = capacity;
      try {
        for (int n = capacity; tiles(n) > 1; n = tiles(n)) {
          levels.add(steps.allocate().apply(device, tiles(n))); // the tiles' totals
          levels.add(steps.allocate().apply(device, tiles(n))); // their exclusive scan
        }
      } catch (RuntimeException e) {
        close();
        throw e;
      }
    }

    /** Frees the arrays. */
    @Override
    public void close() {
      levels.forEach(DeviceArray::close);
    }
  }

  /**
   * A scratch for scans of up to {@code in}'s length, on its device.
   *
   * @param in the array to scan
   * @return the scratch
   */
  public static Scratch<IntArray> scratch(IntArray in) {
    return new Scratch<>(INTS, in.device(), checked(in.length()));
  }

  /**
   * A scratch for scans of up to {@code in}'s length, on its device.
   *
   * @param in the array to scan
   * @return the scratch
   */
  public static Scratch<LongArray> scratch(LongArray in) {
    return new Scratch<>(LONGS, in.device(), checked(in.length()));
  }

  /**
   * A scratch for scans of up to {@code in}'s length, on its device.
   *
   * @param in the array to scan
   * @return the scratch
   */
  public static Scratch<FloatArray> scratch(FloatArray in) {
    return new Scratch<>(FLOATS, in.device(), checked(in.length()));
  }

  /**
   * {@code out[i] = in[0] + ... + in[i]}.
   *
   * @param device where it runs
   * @param in the values
   * @param out at least {@code in.length} elements
   */
  public static void inclusive(Device device, int[] in, int[] out) {
    scanned(INTS, device, in.length, out.length, () -> device.upload(in), out, false);
  }

  /**
   * {@code out[i] = in[0] + ... + in[i - 1]}, 0 for {@code i = 0}.
   *
   * @param device where it runs
   * @param in the values
   * @param out at least {@code in.length} elements
   */
  public static void exclusive(Device device, int[] in, int[] out) {
    scanned(INTS, device, in.length, out.length, () -> device.upload(in), out, true);
  }

  /**
   * {@code out[i] = in[0] + ... + in[i]}, wrapping as Java's longs do.
   *
   * @param device where it runs
   * @param in the values
   * @param out at least {@code in.length} elements
   */
  public static void inclusive(Device device, long[] in, long[] out) {
    scanned(LONGS, device, in.length, out.length, () -> device.upload(in), out, false);
  }

  /**
   * {@code out[i] = in[0] + ... + in[i - 1]}, 0 for {@code i = 0}.
   *
   * @param device where it runs
   * @param in the values
   * @param out at least {@code in.length} elements
   */
  public static void exclusive(Device device, long[] in, long[] out) {
    scanned(LONGS, device, in.length, out.length, () -> device.upload(in), out, true);
  }

  /**
   * {@code out[i] = in[0] + ... + in[i]} in the order of this class's description.
   *
   * @param device where it runs
   * @param in the values
   * @param out at least {@code in.length} elements
   */
  public static void inclusive(Device device, float[] in, float[] out) {
    scanned(FLOATS, device, in.length, out.length, () -> device.upload(in), out, false);
  }

  /**
   * {@code out[i] = in[0] + ... + in[i - 1]}, {@code 0f} for {@code i = 0}, in the order of this
   * class's description.
   *
   * @param device where it runs
   * @param in the values
   * @param out at least {@code in.length} elements
   */
  public static void exclusive(Device device, float[] in, float[] out) {
    scanned(FLOATS, device, in.length, out.length, () -> device.upload(in), out, true);
  }

  /**
   * {@link #inclusive(Device, int[], int[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the values
   * @param out another array of at least {@code in}'s length
   */
  public static void inclusive(Device device, IntArray in, IntArray out) {
    run(INTS, device, in, out, false);
  }

  /**
   * {@link #exclusive(Device, int[], int[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the values
   * @param out another array of at least {@code in}'s length
   */
  public static void exclusive(Device device, IntArray in, IntArray out) {
    run(INTS, device, in, out, true);
  }

  /**
   * {@link #inclusive(Device, long[], long[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the values
   * @param out another array of at least {@code in}'s length
   */
  public static void inclusive(Device device, LongArray in, LongArray out) {
    run(LONGS, device, in, out, false);
  }

  /**
   * {@link #exclusive(Device, long[], long[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the values
   * @param out another array of at least {@code in}'s length
   */
  public static void exclusive(Device device, LongArray in, LongArray out) {
    run(LONGS, device, in, out, true);
  }

  /**
   * {@link #inclusive(Device, float[], float[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the values
   * @param out another array of at least {@code in}'s length
   */
  public static void inclusive(Device device, FloatArray in, FloatArray out) {
    run(FLOATS, device, in, out, false);
  }

  /**
   * {@link #exclusive(Device, float[], float[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the values
   * @param out another array of at least {@code in}'s length
   */
  public static void exclusive(Device device, FloatArray in, FloatArray out) {
    run(FLOATS, device, in, out, true);
  }

  /**
   * {@link #inclusive(Device, int[], int[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the values
   * @param out another array of at least {@code in}'s length
   * @param scratch a scratch for at least {@code in}'s length, open until the batch has run
   */
  public static void inclusive(Batch batch, IntArray in, IntArray out, Scratch<IntArray> scratch) {
    record(batch, in, out, scratch, false);
  }

  /**
   * {@link #exclusive(Device, int[], int[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the values
   * @param out another array of at least {@code in}'s length
   * @param scratch a scratch for at least {@code in}'s length, open until the batch has run
   */
  public static void exclusive(Batch batch, IntArray in, IntArray out, Scratch<IntArray> scratch) {
    record(batch, in, out, scratch, true);
  }

  /**
   * {@link #inclusive(Device, long[], long[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the values
   * @param out another array of at least {@code in}'s length
   * @param scratch a scratch for at least {@code in}'s length, open until the batch has run
   */
  public static void inclusive(
      Batch batch, LongArray in, LongArray out, Scratch<LongArray> scratch) {
    record(batch, in, out, scratch, false);
  }

  /**
   * {@link #exclusive(Device, long[], long[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the values
   * @param out another array of at least {@code in}'s length
   * @param scratch a scratch for at least {@code in}'s length, open until the batch has run
   */
  public static void exclusive(
      Batch batch, LongArray in, LongArray out, Scratch<LongArray> scratch) {
    record(batch, in, out, scratch, true);
  }

  /**
   * {@link #inclusive(Device, float[], float[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the values
   * @param out another array of at least {@code in}'s length
   * @param scratch a scratch for at least {@code in}'s length, open until the batch has run
   */
  public static void inclusive(
      Batch batch, FloatArray in, FloatArray out, Scratch<FloatArray> scratch) {
    record(batch, in, out, scratch, false);
  }

  /**
   * {@link #exclusive(Device, float[], float[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the values
   * @param out another array of at least {@code in}'s length
   * @param scratch a scratch for at least {@code in}'s length, open until the batch has run
   */
  public static void exclusive(
      Batch batch, FloatArray in, FloatArray out, Scratch<FloatArray> scratch) {
    record(batch, in, out, scratch, true);
  }

  /** The launchers of one element type, and how its device arrays are made. */
  private record Steps<S extends DeviceArray<?, S>>(
      Totals<S> totals, Tiles<S> tiles, BiFunction<Device, Integer, S> allocate) {}

  /** A {@code *Totals} kernel's batch launcher. */
  @FunctionalInterface
  private interface Totals<S> {
    void launch(Batch batch, int invocations, S in, S totals, int n);
  }

  /** A {@code *Tiles} kernel's batch launcher. */
  @FunctionalInterface
  private interface Tiles<S> {
    void launch(
        Batch batch, int invocations, S in, S out, S offsets, int n, int exclusive, int given);
  }

  /**
   * Scans a Java array of {@code n} elements, which {@code upload} copies to the device, into
   * {@code out}, checking first that {@code outLength} holds the result.
   */
  private static <A, S extends DeviceArray<A, S>> void scanned(
      Steps<S> steps,
      Device device,
      int n,
      int outLength,
      Supplier<S> upload,
      A out,
      boolean exclusive) {
    Shapes.vector("out", outLength, checked(n));
    if (n == 0) {
      return;
    }
    try (S in = upload.get();
        S result = steps.allocate().apply(device, n)) {
      run(steps, device, in, result, exclusive);
      result.download(out, 0, 0, n);
    }
  }

  private static <S extends DeviceArray<?, S>> void run(
      Steps<S> steps, Device device, S in, S out, boolean exclusive) {
    try (Scratch<S> scratch = new Scratch<>(steps, device, checked(in.length()));
        Batch batch = device.batch()) {
      record(batch, in, out, scratch, exclusive);
    }
  }

  private static <S extends DeviceArray<?, S>> void record(
      Batch batch, S in, S out, Scratch<S> scratch, boolean exclusive) {
    int n = checked(in.length());
    Shapes.vector("out", out.length(), n);
    if (scratch.capacity < n) {
      throw new IllegalArgumentException(
          "the scratch was made for " + scratch.capacity + " elements; this scan has " + n);
    }
    scan(batch, scratch, 0, in, out, n, exclusive);
  }

  /** Records the scan of {@code in}'s first {@code n} into {@code out}, level {@code level} up. */
  private static <S extends DeviceArray<?, S>> void scan(
      Batch batch, Scratch<S> scratch, int level, S in, S out, int n, boolean exclusive) {
    int tiles = tiles(n);
    int flag = exclusive ? 1 : 0;
    if (tiles <= 1) {
      if (n > 0) { // one tile: no offsets (in stands for them, unread)
        scratch.steps.tiles().launch(batch, ScanKernels.WORKGROUP, in, out, in, n, flag, 0);
      }
      return;
    }
    S totals = scratch.levels.get(2 * level);
    S offsets = scratch.levels.get(2 * level + 1);
    int invocations = tiles * ScanKernels.WORKGROUP;
    scratch.steps.totals().launch(batch, invocations, in, totals, n);
    scan(batch, scratch, level + 1, totals, offsets, tiles, true);
    scratch.steps.tiles().launch(batch, invocations, in, out, offsets, n, flag, 1);
  }

  private static int tiles(int n) {
    return (n + TILE - 1) / TILE;
  }

  private static int checked(int n) {
    if (n > MOST) {
      throw new IllegalArgumentException(n + " elements: a scan takes at most " + MOST);
    }
    return n;
  }
}
