package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/** A {@code float} array in device memory. Create one with {@link Device#floats} or {@link Device#upload(float[])}. */
public final class FloatArray extends DeviceArray {
  FloatArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  /** Copies {@code values}, which must have {@link #length()} elements, to the device. */
  public FloatArray upload(float[] values) {
    copyIn(values);
    return this;
  }

  /** Copies the device array into {@code values}, which must have {@link #length()} elements. */
  public void download(float[] values) {
    copyOut(values);
  }

  /** A new Java array with the device array's contents. */
  public float[] toArray() {
    float[] values = new float[length()];
    copyOut(values);
    return values;
  }
}
