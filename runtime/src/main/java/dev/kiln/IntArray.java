package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/** An {@code int} array in device memory. Create one with {@link Device#ints} or {@link Device#upload(int[])}. */
public final class IntArray extends DeviceArray {
  IntArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  /** Copies {@code values}, which must have {@link #length()} elements, to the device. */
  public IntArray upload(int[] values) {
    copyIn(values);
    return this;
  }

  /** Copies the device array into {@code values}, which must have {@link #length()} elements. */
  public void download(int[] values) {
    copyOut(values);
  }

  /** A new Java array with the device array's contents. */
  public int[] toArray() {
    int[] values = new int[length()];
    copyOut(values);
    return values;
  }
}
