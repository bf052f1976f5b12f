package dev.kiln;

import dev.kiln.abi.NumericType;
import dev.kiln.backend.BackendBuffer;
import dev.kiln.backend.KilnLog;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An array in a device's memory, with the copies to and from Java arrays of its element type.
 * Closing it frees the memory; closing twice is harmless. An array that becomes unreachable
 * unclosed is freed by the garbage collector's {@link Cleaner}, once no batch holds it, and
 * reported: one warning per place of allocation, naming it. {@code -Dkiln.arrayTrace=true} names
 * the whole stack there instead of its first frame outside Kiln.
 *
 * <p>The eight element types each have their final class ({@link FloatArray}, {@link IntArray},
 * ...), which a launcher's parameters name; everything they do is written once, here.
 *
 * @param <A> the Java array type of the elements ({@code float[]} for a {@link FloatArray})
 * @param <S> the array's own class, which the copies to the device return
 */
public abstract sealed class DeviceArray<A, S extends DeviceArray<A, S>> implements AutoCloseable
    permits FloatArray,
        IntArray,
        LongArray,
        DoubleArray,
        ByteArray,
        ShortArray,
        CharArray,
        BooleanArray {
  private static final Cleaner CLEANER = Cleaner.create();
  private static final AtomicLong LEAKED = new AtomicLong();
  private static final boolean WHOLE_STACK = Boolean.getBoolean("kiln.arrayTrace");

  /** Places of allocation whose arrays were found unclosed, so that each is reported once. */
  private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

  /**
   * Whether a class is the runtime's own (of its jar or module): its frames are no place of
   * allocation.
   */
  private static final ClassValue<Boolean> KILN =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          return type.getProtectionDomain() == DeviceArray.class.getProtectionDomain();
        }
      };

  private static final StackWalker STACK =
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  /** Elements per chunk of {@link #copyTo(Device)}. */
  private static final int COPY_CHUNK = 1 << 22;

  /** Writes the chunks of {@link #copyTo} to their target, a thread per write. */
  private static final Executor COPY_WRITER =
      task -> Thread.ofVirtual().name("kiln-copy").start(task);

  private final Device device;
  private final Memory memory;
  private final Cleaner.Cleanable cleanable;

  /**
   * An array's memory and what decides when it is freed: what the cleaner runs, holding nothing
   * that keeps the array reachable.
   */
  static final class Memory implements Runnable {
    private final Device device;
    private final BackendBuffer buffer;

    /** The array's class name ({@code FloatArray}), for the report. */
    private final String kind;

    /**
     * Where the array was allocated: its first frame outside Kiln, or its whole stack (read when
     * reported).
     */
    private final Object site;

    /** Closed by its owner or found unreachable; set under {@code this}. */
    private volatile boolean closed;

    /**
     * Batches that recorded a launch on this array and have not closed; guarded by {@code this}.
     */
    private int batches;

    /**
     * Closed while a batch still held it: freed when the last one closes. Guarded by {@code this}.
     */
    private boolean freeWhenUnused;

    /** Freed; guarded by {@code this}. */
    private boolean freed;

    Memory(Device device, BackendBuffer buffer, String kind, Object site) {
      this.device = device;
      this.buffer = buffer;
      this.kind = kind;
      this.site = site;
    }

    /** The array became unreachable: unless it was closed, reports it and frees its memory. */
    @Override
    public void run() {
      if (!markClosed()) {
        return;
      }
      String where = describe(site);
      if (REPORTED.add(where)) {
        KilnLog.logger()
            .log(
                System.Logger.Level.WARNING,
                "{0} was never closed; Kiln frees its memory now that it"
                    + " is unreachable, once no batch holds it. It was allocated at {1}. Fix: close device arrays"
                    + " (try-with-resources) to free their memory at once; arrays allocated there are freed without a message"
                    + " from now on{2}",
                kind + " of length " + buffer.length() + " on " + device.name(),
                where,
                WHOLE_STACK
                    ? ""
                    : "; -Dkiln.arrayTrace=true shows the whole stack of the allocation");
      }
      LEAKED.incrementAndGet(); // counted once reported, so that whoever sees the count sees the
      // report
      device.release(this);
    }

    /** Marks the memory closed; true the first time. */
    synchronized boolean markClosed() {
      if (closed) {
        return false;
      }
      closed = true;
      return true;
    }

    boolean isClosed() {
      return closed;
    }

    /** Frees the memory now, or, while a batch holds the array, once the last one lets it go. */
    void freeOrDefer() {
      boolean now;
      synchronized (this) {
        now = batches == 0;
        freeWhenUnused = !now;
      }
      if (now) {
        free();
      }
    }

    synchronized void holdFor() {
      batches++;
    }

    /** A batch that held the array closed; frees the memory if the array was closed meanwhile. */
    void letGo() {
      boolean free;
      synchronized (this) {
        batches--;
        free = batches == 0 && freeWhenUnused;
        freeWhenUnused = false;
      }
      if (free) {
        device.freeClosed(this);
      }
    }

    /** Frees the buffer once; the device counts it off. */
    void free() {
      synchronized (this) {
        if (freed) {
          return;
        }
        freed = true;
      }
      buffer.close();
      device.freed(buffer);
    }

    BackendBuffer buffer() {
      return buffer;
    }
  }

  DeviceArray(Device device, BackendBuffer buffer) {
    this.device = device;
    this.memory = new Memory(device, buffer, getClass().getSimpleName(), allocationSite());
    this.cleanable = CLEANER.register(this, memory);
  }

  /**
   * The first frame of the caller outside Kiln's runtime, or the whole stack with {@code
   * kiln.arrayTrace}: taken at every allocation, so it stays a frame until {@link #describe} reads
   * it.
   */
  private static Object allocationSite() {
    if (WHOLE_STACK) {
      return new Throwable().getStackTrace();
    }
    return STACK.walk(
        frames ->
            frames.filter(frame -> !KILN.get(frame.getDeclaringClass())).findFirst().orElse(null));
  }

  private static String describe(Object site) {
    return switch (site) {
      case StackWalker.StackFrame frame -> String.valueOf(frame.toStackTraceElement());
      case StackTraceElement[] stack ->
          java.util.Arrays.stream(stack)
              .map(String::valueOf)
              .collect(java.util.stream.Collectors.joining("\n\tat "));
      case null, default -> "an unknown place";
    };
  }

  /** How many device arrays became unreachable without being closed, in this JVM. */
  static long leaked() {
    return LEAKED.get();
  }

  /**
   * Number of elements.
   *
   * @return the length
   */
  public final int length() {
    return memory.buffer().length();
  }

  /**
   * The device this array lives on.
   *
   * @return the device
   */
  public final Device device() {
    return device;
  }

  final BackendBuffer buffer() {
    if (memory.isClosed()) {
      throw new IllegalStateException(
          getClass().getSimpleName() + " of length " + length() + " is closed");
    }
    return memory.buffer();
  }

  /** A new zero-filled array of {@code type} and {@code length} elements on {@code device}. */
  static DeviceArray<?, ?> zeros(Device device, NumericType type, int length) {
    return switch (type) {
      case FLOAT -> device.floats(length);
      case INT -> device.ints(length);
      case LONG -> device.longs(length);
      case DOUBLE -> device.doubles(length);
      case BYTE -> device.bytes(length);
      case SHORT -> device.shorts(length);
      case CHAR -> device.chars(length);
      case BOOLEAN -> device.booleans(length);
    };
  }

  /** This array, as its own class. */
  abstract S self();

  /** A new Java array of {@code length} elements of this array's type. */
  abstract A newJavaArray(int length);

  /** A new zero-filled array of this class and {@code length} elements on {@code device}. */
  abstract S emptyOn(Device device, int length);

  /**
   * A new array on {@code target} holding this array's elements: the copy between devices. It goes
   * through host memory in chunks of four million elements, the write of each chunk to {@code
   * target} (on a thread of its own) overlapping the read of the next from this array's device. The
   * target may be this array's own device (a duplicate). Where a copy fails, the new array is
   * closed.
   *
   * @param target the device to copy to
   * @return the new array, owned by {@code target}
   */
  public final S copyTo(Device target) {
    return copyTo(target, COPY_CHUNK);
  }

  /** {@link #copyTo(Device)} in chunks of {@code chunk} elements. */
  final S copyTo(Device target, int chunk) {
    S copy = emptyOn(target, length());
    try {
      copyRange(copy, 0, length(), chunk);
    } catch (RuntimeException | Error e) {
      copy.close();
      throw e;
    }
    return copy;
  }

  /**
   * Copies every element into {@code target}, an array of this length on any device, as {@link
   * #copyTo(Device)} copies them (through host memory, in overlapped chunks), but into memory that
   * exists already: no allocation on the target.
   *
   * @param target the array to overwrite
   */
  public final void copyInto(S target) {
    if (target.length() != length()) {
      throw new IllegalArgumentException(
          "the target has "
              + target.length()
              + " elements, this array "
              + length()
              + ". Fix: copy into an array of the same length, or copyTo(device) for a new one");
    }
    copyRange(target, 0, length());
  }

  /**
   * Copies elements {@code from .. to-1} to the same elements of {@code target}, an array of any
   * device, through host memory in chunks of four million elements, the write of each chunk
   * overlapping the read of the next.
   */
  final void copyRange(DeviceArray<A, ?> target, int from, int to) {
    copyRange(target, from, to, COPY_CHUNK);
  }

  private void copyRange(DeviceArray<A, ?> target, int from, int to, int chunk) {
    java.util.Objects.checkFromToIndex(from, to, length());
    java.util.Objects.checkFromToIndex(from, to, target.length());
    CompletableFuture<Void> writing = CompletableFuture.completedFuture(null);
    try {
      int staged = Math.min(chunk, to - from);
      List<A> staging = List.of(newJavaArray(staged), newJavaArray(staged));
      for (int offset = from, turn = 0; offset < to; offset += chunk, turn ^= 1) {
        int first = offset;
        int count = Math.min(chunk, to - offset);
        A chunkValues = staging.get(turn);
        download(chunkValues, 0, first, count); // while the chunk before is written to the target
        awaitCopy(writing);
        writing =
            CompletableFuture.runAsync(
                () -> target.upload(chunkValues, 0, first, count), COPY_WRITER);
      }
      awaitCopy(writing);
    } finally {
      writing
          .exceptionally(failure -> null)
          .join(); // no write may still run into an array its caller closes
    }
  }

  /** Waits for a chunk's write, and throws what it threw. */
  private static void awaitCopy(CompletableFuture<Void> writing) {
    try {
      writing.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  /**
   * Copies {@code values}, which must have {@link #length()} elements, to the device.
   *
   * @param values the values, one per element
   * @return this array
   */
  public final S upload(A values) {
    checkLength(NumericType.length(values));
    device.write(this, values, 0, 0, length());
    return self();
  }

  /**
   * Copies the device array into {@code values}, which must have {@link #length()} elements.
   *
   * @param values the Java array to fill
   */
  public final void download(A values) {
    checkLength(NumericType.length(values));
    device.read(this, values, 0, 0, length());
  }

  /**
   * Copies {@code count} values from {@code values[valuesOffset...]} to elements {@code offset...}.
   *
   * @param values the Java array to copy from
   * @param valuesOffset the first index in {@code values}
   * @param offset the first element of the device array
   * @param count how many values
   * @return this array
   */
  public final S upload(A values, int valuesOffset, int offset, int count) {
    checkRange(NumericType.length(values), valuesOffset, offset, count);
    device.write(this, values, valuesOffset, offset, count);
    return self();
  }

  /**
   * Copies elements {@code offset...offset+count-1} to {@code values[valuesOffset...]}.
   *
   * @param values the Java array to copy into
   * @param valuesOffset the first index in {@code values}
   * @param offset the first element of the device array
   * @param count how many values
   */
  public final void download(A values, int valuesOffset, int offset, int count) {
    checkRange(NumericType.length(values), valuesOffset, offset, count);
    device.read(this, values, valuesOffset, offset, count);
  }

  /**
   * A new Java array with the device array's contents.
   *
   * @return the elements, copied
   */
  public final A toArray() {
    A values = newJavaArray(length());
    download(values);
    return values;
  }

  private void checkRange(int arrayLength, int arrayOffset, int offset, int count) {
    java.util.Objects.checkFromIndexSize(arrayOffset, count, arrayLength);
    java.util.Objects.checkFromIndexSize(offset, count, length());
  }

  private void checkLength(int other) {
    if (other != length()) {
      throw new IllegalArgumentException(
          "Java array has " + other + " elements, device array " + length());
    }
  }

  @Override
  public final void close() {
    if (memory.markClosed()) {
      cleanable.clean(); // unregisters it: the memory is closed, so the cleaner's run does nothing
      device.release(memory);
    }
  }

  /** Whether the array has been closed. */
  final boolean isClosed() {
    return memory.isClosed();
  }

  /** A batch recorded a launch on this array: its memory stays until the batch lets it go. */
  final void holdFor() {
    memory.holdFor();
  }

  /** A batch that held this array closed; frees the memory if the array was closed meanwhile. */
  final void letGo() {
    memory.letGo();
  }
}
