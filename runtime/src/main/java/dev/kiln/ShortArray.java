package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * A {@code short} array in device memory. Create one with {@link Device#shorts} or {@link
 * Device#upload(short[])}.
 */
public final class ShortArray extends DeviceArray<short[], ShortArray> {
  ShortArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  ShortArray self() {
    return this;
  }

  @Override
  short[] newJavaArray(int length) {
    return new short[length];
  }

  @Override
  ShortArray emptyOn(Device device, int length) {
    return device.shorts(length);
  }
}
