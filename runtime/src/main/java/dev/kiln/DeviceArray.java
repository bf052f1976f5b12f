package dev.kiln;

import dev.kiln.backend.BackendBuffer;
import dev.kiln.backend.KilnLog;
import dev.kiln.internal.NumericType;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An array in a device's memory. Closing it frees the memory; closing twice is harmless. An array
 * that becomes unreachable unclosed is reported (a warning through {@code System.Logger}); its
 * memory is freed when its device closes.
 */
public abstract sealed class DeviceArray implements AutoCloseable permits FloatArray, IntArray, LongArray, DoubleArray,
    ByteArray, ShortArray, CharArray, BooleanArray {
  private static final Cleaner CLEANER = Cleaner.create();
  private static final AtomicLong LEAKED = new AtomicLong();

  private final Device device;
  private final BackendBuffer buffer;
  private final LeakReport leak;
  private final Cleaner.Cleanable cleanable;
  private volatile boolean closed;
  /** Batches that recorded a launch on this array and have not closed; guarded by {@code this}. */
  private int batches;
  /** Closed while a batch still held it: freed when the last one closes. Guarded by {@code this}. */
  private boolean freeWhenUnused;

  /** What the cleaner knows of an array: enough to report it, nothing that keeps it reachable. */
  private static final class LeakReport implements Runnable {
    private final String description;
    private volatile boolean closed;
  /** Batches that recorded a launch on this array and have not closed; guarded by {@code this}. */
  private int batches;
  /** Closed while a batch still held it: freed when the last one closes. Guarded by {@code this}. */
  private boolean freeWhenUnused;

    LeakReport(String description) {
      this.description = description;
    }

    @Override
    public void run() {
      if (!closed) { // counted once reported, so that whoever sees the count sees the report
        KilnLog.logger().log(System.Logger.Level.WARNING,
            "{0} was never closed; its memory is freed when its device closes", description);
        LEAKED.incrementAndGet();
      }
    }
  }

  DeviceArray(Device device, BackendBuffer buffer) {
    this.device = device;
    this.buffer = buffer;
    this.leak = new LeakReport(getClass().getSimpleName() + " of length " + buffer.length() + " on " + device.name());
    this.cleanable = CLEANER.register(this, leak);
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
    return buffer.length();
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
    if (closed) {
      throw new IllegalStateException(getClass().getSimpleName() + " of length " + length() + " is closed");
    }
    return buffer;
  }

  /** The buffer, closed or not. */
  final BackendBuffer rawBuffer() {
    return buffer;
  }

  final void copyIn(Object array) {
    checkLength(NumericType.length(array));
    device.write(this, array, 0, 0, length());
  }

  final void copyOut(Object array) {
    checkLength(NumericType.length(array));
    device.read(this, array, 0, 0, length());
  }

  final void copyIn(Object array, int arrayOffset, int offset, int count) {
    checkRange(NumericType.length(array), arrayOffset, offset, count);
    device.write(this, array, arrayOffset, offset, count);
  }

  final void copyOut(Object array, int arrayOffset, int offset, int count) {
    checkRange(NumericType.length(array), arrayOffset, offset, count);
    device.read(this, array, arrayOffset, offset, count);
  }

  private void checkRange(int arrayLength, int arrayOffset, int offset, int count) {
    java.util.Objects.checkFromIndexSize(arrayOffset, count, arrayLength);
    java.util.Objects.checkFromIndexSize(offset, count, length());
  }

  private void checkLength(int other) {
    if (other != length()) {
      throw new IllegalArgumentException("Java array has " + other + " elements, device array " + length());
    }
  }

  @Override
  public final void close() {
    device.release(this);
  }

  /** Whether the array has been closed. */
  final boolean isClosed() {
    return closed;
  }

  /** A batch recorded a launch on this array: its memory stays until the batch lets it go. */
  final synchronized void holdFor() {
    batches++;
  }

  /** A batch that held this array closed; frees the memory if the array was closed meanwhile. */
  final void letGo() {
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

  /** Frees the memory now, or, while a batch holds the array, once the last one lets it go. */
  final void freeOrDefer() {
    boolean now;
    synchronized (this) {
      now = batches == 0;
      freeWhenUnused = !now;
    }
    if (now) {
      buffer.close();
    }
  }

  /** Marks the array closed; true the first time. */
  final boolean markClosed() {
    if (closed) {
      return false;
    }
    closed = true;
    leak.closed = true;
    cleanable.clean();
    return true;
  }
}
