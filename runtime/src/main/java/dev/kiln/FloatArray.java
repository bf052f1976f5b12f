package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * A {@code float} array in device memory. Create one with {@link Device#floats} or {@link
 * Device#upload(float[])}.
 */
public final class FloatArray extends DeviceArray<float[], FloatArray> {
  FloatArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  FloatArray self() {
    return this;
  }

  @Override
  float[] newJavaArray(int length) {
    return new float[length];
  }

  @Override
  FloatArray emptyOn(Device device, int length) {
    return device.floats(length);
  }
}
