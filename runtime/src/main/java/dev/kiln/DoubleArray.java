package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/** A {@code double} array in device memory. Create one with {@link Device#doubles} or {@link Device#upload(double[])}. */
public final class DoubleArray extends DeviceArray {
  DoubleArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  /** Copies {@code values}, which must have {@link #length()} elements, to the device. */
  public DoubleArray upload(double[] values) {
    copyIn(values);
    return this;
  }

  /** Copies the device array into {@code values}, which must have {@link #length()} elements. */
  public void download(double[] values) {
    copyOut(values);
  }

  /** Copies {@code count} values from {@code values[valuesOffset...]} to elements {@code offset...}. */
  public DoubleArray upload(double[] values, int valuesOffset, int offset, int count) {
    copyIn(values, valuesOffset, offset, count);
    return this;
  }

  /** Copies elements {@code offset...offset+count-1} to {@code values[valuesOffset...]}. */
  public void download(double[] values, int valuesOffset, int offset, int count) {
    copyOut(values, valuesOffset, offset, count);
  }

  /** A new Java array with the device array's contents. */
  public double[] toArray() {
    double[] values = new double[length()];
    copyOut(values);
    return values;
  }
}
