package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * A {@code long} array in device memory. Create one with {@link Device#longs} or {@link
 * Device#upload(long[])}.
 */
public final class LongArray extends DeviceArray<long[], LongArray> {
  LongArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  LongArray self() {
    return this;
  }

  @Override
  long[] newJavaArray(int length) {
    return new long[length];
  }

  @Override
  LongArray emptyOn(Device device, int length) {
    return device.longs(length);
  }
}
