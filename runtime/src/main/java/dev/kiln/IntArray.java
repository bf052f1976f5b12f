package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * An {@code int} array in device memory. Create one with {@link Device#ints} or {@link
 * Device#upload(int[])}.
 */
public final class IntArray extends DeviceArray<int[], IntArray> {
  IntArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  IntArray self() {
    return this;
  }

  @Override
  int[] newJavaArray(int length) {
    return new int[length];
  }

  @Override
  IntArray emptyOn(Device device, int length) {
    return device.ints(length);
  }
}
