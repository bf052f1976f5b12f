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

  /** Copies {@code count} values from {@code values[valuesOffset...]} to elements {@code offset...}. */
  public FloatArray upload(float[] values, int valuesOffset, int offset, int count) {
    copyIn(values, valuesOffset, offset, count);
    return this;
  }

  /** Copies elements {@code offset...offset+count-1} to {@code values[valuesOffset...]}. */
  public void download(float[] values, int valuesOffset, int offset, int count) {
    copyOut(values, valuesOffset, offset, count);
  }

  /** A new Java array with the device array's contents. */
  public float[] toArray() {
    float[] values = new float[length()];
    copyOut(values);
    return values;
  }
}
