package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/** A {@code double} array in device memory. Create one with {@link Device#doubles} or {@link Device#upload(double[])}. */
public final class DoubleArray extends DeviceArray {
  DoubleArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  /**
   * Copies {@code values}, which must have {@link #length()} elements, to the device.
   *
   * @param values the values, one per element
   * @return this array
   */
  public DoubleArray upload(double[] values) {
    copyIn(values);
    return this;
  }

  /**
   * Copies the device array into {@code values}, which must have {@link #length()} elements.
   *
   * @param values the Java array to fill
   */
  public void download(double[] values) {
    copyOut(values);
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
  public DoubleArray upload(double[] values, int valuesOffset, int offset, int count) {
    copyIn(values, valuesOffset, offset, count);
    return this;
  }

  /**
   * Copies elements {@code offset...offset+count-1} to {@code values[valuesOffset...]}.
   *
   * @param values the Java array to copy into
   * @param valuesOffset the first index in {@code values}
   * @param offset the first element of the device array
   * @param count how many values
   */
  public void download(double[] values, int valuesOffset, int offset, int count) {
    copyOut(values, valuesOffset, offset, count);
  }

  /**
   * A new Java array with the device array's contents.
   *
   * @return the elements, copied
   */
  public double[] toArray() {
    double[] values = new double[length()];
    copyOut(values);
    return values;
  }
}
