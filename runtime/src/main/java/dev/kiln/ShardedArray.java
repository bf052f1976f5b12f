package dev.kiln;

import dev.kiln.abi.NumericType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One logical array kept on the devices of a {@link DeviceSet}: each device owns a contiguous range
 * of its elements (its shard) and holds, beside it, a halo of {@code halo} elements on each side
 * that copies its neighbours' ends. A launcher's method that takes a {@code DeviceSet} and sharded
 * arrays runs each device's ids on the arrays that device holds, with no copy of the interior
 * through the host; between launches only halos cross between devices, and only where a launch
 * wrote an array that a later one reads beyond its own range. The result is bit for bit what one
 * device's launch on whole arrays gives.
 *
 * <p>An array may instead be {@linkplain #replicate replicated}: every device holds all of it, for
 * a kernel that reads a buffer anywhere (a matrix every row of a product reads); launches only read
 * it.
 *
 * <p>Shards are whole blocks of {@code block} elements (4,096 unless given), as evenly spread as
 * the blocks allow (device {@code d} of {@code D} starts at block {@code ⌊B·d/D⌋} of {@code B}): a
 * split launch gives each device the ids of its shards, which must start at whole workgroups.
 * Memory: each device allocates the array's full length, of which it keeps its shard and halos
 * current; indexing by the global ids is what lets a kernel run unchanged on a shard.
 *
 * <pre>{@code
 * try (DeviceSet both = DeviceSet.of(first, second);
 *     ShardedArray<float[]> u = ShardedArray.upload(both, grid, width);
 *     ShardedArray<float[]> next = ShardedArray.zeros(both, float[].class, grid.length, width)) {
 *   for (int step = 0; step < 100; step++) {
 *     StencilKernels.relax(both, grid.length, step % 2 == 0 ? u : next, step % 2 == 0 ? next : u, width);
 *   }
 *   float[] result = u.toArray();
 * }
 * }</pre>
 *
 * @param <A> the Java array type of the elements ({@code float[]})
 */
public final class ShardedArray<A> implements AutoCloseable {
  /** The elements a shard is a whole number of, unless given. */
  public static final int DEFAULT_BLOCK = 4096;

  private final DeviceSet devices;
  private final NumericType type;
  private final int length;
  private final int halo;
  private final boolean replicated;

  /** Where each device's shard starts, and the length at the end. */
  private final int[] bounds;

  private final List<DeviceArray<A, ?>> parts;

  /** Whether a write to a shard may have left a neighbour's halo behind; guarded by this. */
  private boolean halosBehind;

  private long exchanges;
  private boolean closed;

  private ShardedArray(
      DeviceSet devices,
      NumericType type,
      int length,
      int halo,
      int block,
      boolean replicated,
      List<DeviceArray<A, ?>> parts) {
    this.devices = devices;
    this.type = type;
    this.length = length;
    this.halo = halo;
    this.replicated = replicated;
    this.parts = List.copyOf(parts);
    int count = devices.devices().size();
    this.bounds = new int[count + 1];
    long blocks = Math.ceilDiv((long) length, block);
    for (int d = 0; d <= count; d++) {
      bounds[d] = replicated ? 0 : (int) Math.min(length, blocks * d / count * block);
    }
    bounds[count] = length;
  }

  /**
   * A new sharded array holding {@code values}, in shards of whole {@link #DEFAULT_BLOCK}s.
   *
   * @param devices the devices it lives on
   * @param values the elements
   * @param halo the elements of a neighbour's shard each device keeps on each side
   * @param <A> the Java array type
   * @return the array
   */
  public static <A> ShardedArray<A> upload(DeviceSet devices, A values, int halo) {
    return upload(devices, values, halo, DEFAULT_BLOCK);
  }

  /**
   * A new sharded array holding {@code values}, each shard whole blocks of {@code block} elements
   * (a matrix's rows, say, for a product split by rows).
   *
   * @param devices the devices it lives on
   * @param values the elements
   * @param halo the elements of a neighbour's shard each device keeps on each side
   * @param block the elements each shard is a whole number of (the last one may be cut short)
   * @param <A> the Java array type
   * @return the array
   */
  public static <A> ShardedArray<A> upload(DeviceSet devices, A values, int halo, int block) {
    ShardedArray<A> array =
        allocate(devices, javaType(values), NumericType.length(values), halo, block, false);
    return array.uploadOrClose(values);
  }

  /**
   * A new sharded array of {@code length} zeros.
   *
   * @param devices the devices it lives on
   * @param type the Java array type ({@code float[].class})
   * @param length the elements
   * @param halo the elements of a neighbour's shard each device keeps on each side
   * @param <A> the Java array type
   * @return the array
   */
  public static <A> ShardedArray<A> zeros(DeviceSet devices, Class<A> type, int length, int halo) {
    return zeros(devices, type, length, halo, DEFAULT_BLOCK);
  }

  /**
   * A new sharded array of {@code length} zeros, each shard whole blocks of {@code block} elements.
   *
   * @param devices the devices it lives on
   * @param type the Java array type ({@code float[].class})
   * @param length the elements
   * @param halo the elements of a neighbour's shard each device keeps on each side
   * @param block the elements each shard is a whole number of
   * @param <A> the Java array type
   * @return the array
   */
  public static <A> ShardedArray<A> zeros(
      DeviceSet devices, Class<A> type, int length, int halo, int block) {
    return allocate(devices, type, length, halo, block, false);
  }

  /**
   * A new array of which every device holds all of {@code values}, for launches that read it
   * anywhere.
   *
   * @param devices the devices it lives on
   * @param values the elements
   * @param <A> the Java array type
   * @return the array
   */
  public static <A> ShardedArray<A> replicate(DeviceSet devices, A values) {
    ShardedArray<A> array =
        allocate(devices, javaType(values), NumericType.length(values), 0, DEFAULT_BLOCK, true);
    return array.uploadOrClose(values);
  }

  @SuppressWarnings("unchecked")
  private static <A> Class<A> javaType(A values) {
    return (Class<A>) Objects.requireNonNull(values, "values").getClass();
  }

  @SuppressWarnings("unchecked") // a device array of the type's Java array type
  private static <A> ShardedArray<A> allocate(
      DeviceSet devices, Class<A> javaType, int length, int halo, int block, boolean replicated) {
    devices.checkOpen();
    if (!javaType.isArray() || !javaType.getComponentType().isPrimitive()) {
      throw new IllegalArgumentException(
          javaType.getSimpleName() + " is not an array type a kernel takes (float[], int[], ...)");
    }
    NumericType type =
        NumericType.ofArray(java.lang.reflect.Array.newInstance(javaType.getComponentType(), 0));
    if (length < 0 || halo < 0 || block < 1) {
      throw new IllegalArgumentException(
          "length "
              + length
              + ", halo "
              + halo
              + ", block "
              + block
              + ": none may be negative, and"
              + " a block holds at least one element");
    }
    List<DeviceArray<A, ?>> parts = new ArrayList<>();
    try {
      for (Device device : devices.devices()) {
        parts.add((DeviceArray<A, ?>) DeviceArray.zeros(device, type, length));
      }
    } catch (RuntimeException | Error e) {
      parts.forEach(DeviceArray::close);
      throw e;
    }
    return new ShardedArray<>(devices, type, length, halo, block, replicated, parts);
  }

  private ShardedArray<A> uploadOrClose(A values) {
    try {
      return upload(values);
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  /**
   * The number of elements.
   *
   * @return the length
   */
  public int length() {
    return length;
  }

  /**
   * The elements of a neighbour's shard each device keeps on each side.
   *
   * @return the halo's width
   */
  public int halo() {
    return halo;
  }

  /**
   * Whether every device holds all of the array.
   *
   * @return whether it is replicated
   */
  public boolean isReplicated() {
    return replicated;
  }

  /**
   * The devices, whose order is the shards' along the array.
   *
   * @return the set
   */
  public DeviceSet devices() {
    return devices;
  }

  /**
   * The element type.
   *
   * @return the type
   */
  NumericType type() {
    return type;
  }

  /**
   * The first element of device {@code shard}'s shard (0 for every device of a replicated array).
   *
   * @param shard the device's number in the set
   * @return the element
   */
  public int first(int shard) {
    return bounds[shard];
  }

  /**
   * The element after the last of device {@code shard}'s shard (the length, for every device of a
   * replicated array).
   *
   * @param shard the device's number in the set
   * @return the element
   */
  public int end(int shard) {
    return replicated ? length : bounds[shard + 1];
  }

  /**
   * The array device {@code shard} holds: the full length, of which its shard and halos are current
   * (all of it where replicated). A library routine that launches on the parts itself (a product
   * split by rows) calls {@link #markWritten} after it writes them.
   *
   * @param shard the device's number in the set
   * @return its array
   */
  public DeviceArray<A, ?> part(int shard) {
    checkOpen();
    return parts.get(shard);
  }

  /**
   * Says that launches on the {@linkplain #part parts} wrote elements of their shards: the next
   * launch that reads beyond a shard brings the halos up to date first.
   */
  public synchronized void markWritten() {
    if (replicated) {
      throw new IllegalStateException(
          "a replicated array is written only by upload: every device holds all of it");
    }
    halosBehind = true;
  }

  /**
   * How many times the halos were brought up to date between launches, since the array was made.
   *
   * @return the exchanges
   */
  public synchronized long halosExchanged() {
    return exchanges;
  }

  /**
   * Replaces the elements with {@code values}: each device's shard and halos (or all of it, where
   * replicated), the devices side by side.
   *
   * @param values the elements, {@link #length()} of them
   * @return this array
   */
  public ShardedArray<A> upload(A values) {
    checkOpen();
    checkLength(values);
    List<Runnable> writes = new ArrayList<>();
    for (int d = 0; d < parts.size(); d++) {
      DeviceArray<A, ?> part = parts.get(d);
      int from = windowFirst(d);
      int to = windowEnd(d);
      writes.add(() -> part.upload(values, from, from, to - from));
    }
    synchronized (this) {
      DeviceSet.sideBySide(writes);
      halosBehind = false;
    }
    return this;
  }

  /**
   * Copies the elements into {@code values}: each device's shard, side by side.
   *
   * @param values the Java array to fill, {@link #length()} elements
   */
  public void download(A values) {
    checkOpen();
    checkLength(values);
    if (replicated) {
      parts.getFirst().download(values);
      return;
    }
    List<Runnable> reads = new ArrayList<>();
    for (int d = 0; d < parts.size(); d++) {
      DeviceArray<A, ?> part = parts.get(d);
      int from = first(d);
      int to = end(d);
      reads.add(() -> part.download(values, from, from, to - from));
    }
    DeviceSet.sideBySide(reads);
  }

  /**
   * A new Java array with the elements.
   *
   * @return the elements, copied
   */
  public A toArray() {
    checkOpen();
    A values = parts.getFirst().newJavaArray(length);
    download(values);
    return values;
  }

  /**
   * A new array on {@code target} with the elements, gathered from the shards (each through host
   * memory in chunks, as {@link DeviceArray#copyTo(Device)}).
   *
   * @param target the device
   * @return the new array, owned by {@code target}
   */
  public DeviceArray<A, ?> copyTo(Device target) {
    checkOpen();
    @SuppressWarnings("unchecked")
    DeviceArray<A, ?> copy = (DeviceArray<A, ?>) DeviceArray.zeros(target, type, length);
    try {
      fill(copy, 0, length);
    } catch (RuntimeException | Error e) {
      copy.close();
      throw e;
    }
    return copy;
  }

  /**
   * A new array on {@code target}, sharded as this one (its halo, and shards of {@code block}
   * elements) or replicated where this one is, with the elements copied from this array's shards.
   *
   * @param target the devices
   * @param block the elements each of its shards is a whole number of
   * @return the new array
   */
  public ShardedArray<A> copyTo(DeviceSet target, int block) {
    checkOpen();
    @SuppressWarnings("unchecked")
    Class<A> javaType = (Class<A>) parts.getFirst().newJavaArray(0).getClass();
    ShardedArray<A> copy = allocate(target, javaType, length, halo, block, replicated);
    try {
      List<Runnable> fills = new ArrayList<>();
      for (int d = 0; d < copy.parts.size(); d++) {
        DeviceArray<A, ?> part = copy.parts.get(d);
        int from = copy.windowFirst(d);
        int to = copy.windowEnd(d);
        fills.add(() -> fill(part, from, to));
      }
      DeviceSet.sideBySide(fills);
    } catch (RuntimeException | Error e) {
      copy.close();
      throw e;
    }
    return copy;
  }

  /**
   * Brings every device's halos up to date where a write may have left them behind: each copies the
   * elements of its halo from the devices that own them, the devices side by side.
   */
  synchronized void exchangeHalos() {
    if (!halosBehind || replicated) {
      return;
    }
    List<Runnable> copies = new ArrayList<>();
    for (int d = 0; d < parts.size(); d++) {
      DeviceArray<A, ?> part = parts.get(d);
      int before = windowFirst(d);
      int own = first(d);
      int end = end(d);
      int after = windowEnd(d);
      if (before < own) {
        copies.add(() -> fill(part, before, own));
      }
      if (end < after) {
        copies.add(() -> fill(part, end, after));
      }
    }
    DeviceSet.sideBySide(copies);
    halosBehind = false;
    if (!copies.isEmpty()) {
      exchanges++;
    }
  }

  /** Copies elements {@code from .. to-1} into {@code target} from the shards that own them. */
  private void fill(DeviceArray<A, ?> target, int from, int to) {
    if (replicated) {
      parts.getFirst().copyRange(target, from, to);
      return;
    }
    for (int d = 0; d < parts.size(); d++) {
      int start = Math.max(from, first(d));
      int stop = Math.min(to, end(d));
      if (start < stop) {
        parts.get(d).copyRange(target, start, stop);
      }
    }
  }

  /** The first element device {@code d} keeps current: its shard's less the halo. */
  int windowFirst(int d) {
    return replicated || first(d) == end(d) ? first(d) : Math.max(0, first(d) - halo);
  }

  /** The element after the last device {@code d} keeps current. */
  int windowEnd(int d) {
    return replicated || first(d) == end(d) ? end(d) : (int) Math.min(length, (long) end(d) + halo);
  }

  private void checkLength(A values) {
    if (NumericType.length(values) != length) {
      throw new IllegalArgumentException(
          "Java array has " + NumericType.length(values) + " elements, sharded array " + length);
    }
  }

  private synchronized void checkOpen() {
    if (closed) {
      throw new IllegalStateException("this sharded array of length " + length + " is closed");
    }
  }

  /** Frees every device's part. Closing twice is harmless. */
  @Override
  public synchronized void close() {
    closed = true;
    parts.forEach(DeviceArray::close);
  }

  @Override
  public String toString() {
    return (replicated ? "replicated " : "sharded ")
        + type.name().toLowerCase(java.util.Locale.ROOT)
        + " array of "
        + length
        + (replicated ? "" : ", halo " + halo)
        + " on "
        + parts.size()
        + " devices";
  }
}
