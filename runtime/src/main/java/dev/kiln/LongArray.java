package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/** A {@code long} array in device memory. Create one with {@link Device#longs} or {@link Device#upload(long[])}. */
public final class LongArray extends DeviceArray {
  LongArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  /** Copies {@code values}, which must have {@link #length()} elements, to the device. */
  public LongArray upload(long[] values) {
    copyIn(values);
    return this;
  }

  /** Copies the device array into {@code values}, which must have {@link #length()} elements. */
  public void download(long[] values) {
    copyOut(values);
  }

  /** Copies {@code count} values from {@code values[valuesOffset...]} to elements {@code offset...}. */
  public LongArray upload(long[] values, int valuesOffset, int offset, int count) {
    copyIn(values, valuesOffset, offset, count);
    return this;
  }

  /** Copies elements {@code offset...offset+count-1} to {@code values[valuesOffset...]}. */
  public void download(long[] values, int valuesOffset, int offset, int count) {
    copyOut(values, valuesOffset, offset, count);
  }

  /** A new Java array with the device array's contents. */
  public long[] toArray() {
    long[] values = new long[length()];
    copyOut(values);
    return values;
  }
}
