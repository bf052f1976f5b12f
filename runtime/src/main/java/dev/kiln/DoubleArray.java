package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * A {@code double} array in device memory. Create one with {@link Device#doubles} or {@link
 * Device#upload(double[])}.
 */
public final class DoubleArray extends DeviceArray<double[], DoubleArray> {
  DoubleArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  DoubleArray self() {
    return this;
  }

  @Override
  double[] newJavaArray(int length) {
    return new double[length];
  }

  @Override
  DoubleArray emptyOn(Device device, int length) {
    return device.doubles(length);
  }
}
