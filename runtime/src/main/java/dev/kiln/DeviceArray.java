package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/** An array in a device's memory. Closing it frees the memory; closing twice is harmless. */
public abstract sealed class DeviceArray implements AutoCloseable permits FloatArray, IntArray, LongArray, DoubleArray {
  private final Device device;
  private final BackendBuffer buffer;
  private volatile boolean closed;

  DeviceArray(Device device, BackendBuffer buffer) {
    this.device = device;
    this.buffer = buffer;
  }

  /** Number of elements. */
  public final int length() {
    return buffer.length();
  }

  /** The device this array lives on. */
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
    device.write(this, array);
  }

  final void copyOut(Object array) {
    checkLength(NumericType.length(array));
    device.read(this, array);
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

  /** Marks the array closed; true the first time. */
  final boolean markClosed() {
    if (closed) {
      return false;
    }
    closed = true;
    return true;
  }
}
