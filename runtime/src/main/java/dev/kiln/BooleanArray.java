package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/** A {@code boolean} array in device memory. Create one with {@link Device#booleans} or {@link Device#upload(boolean[])}. */
public final class BooleanArray extends DeviceArray {
  BooleanArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  /** Copies {@code values}, which must have {@link #length()} elements, to the device. */
  public BooleanArray upload(boolean[] values) {
    copyIn(values);
    return this;
  }

  /** Copies the device array into {@code values}, which must have {@link #length()} elements. */
  public void download(boolean[] values) {
    copyOut(values);
  }

  /** Copies {@code count} values from {@code values[valuesOffset...]} to elements {@code offset...}. */
  public BooleanArray upload(boolean[] values, int valuesOffset, int offset, int count) {
    copyIn(values, valuesOffset, offset, count);
    return this;
  }

  /** Copies elements {@code offset...offset+count-1} to {@code values[valuesOffset...]}. */
  public void download(boolean[] values, int valuesOffset, int offset, int count) {
    copyOut(values, valuesOffset, offset, count);
  }

  /** A new Java array with the device array's contents. */
  public boolean[] toArray() {
    boolean[] values = new boolean[length()];
    copyOut(values);
    return values;
  }
}
