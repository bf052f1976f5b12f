package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * A {@code boolean} array in device memory. Create one with {@link Device#booleans} or {@link
 * Device#upload(boolean[])}.
 */
public final class BooleanArray extends DeviceArray<boolean[], BooleanArray> {
  BooleanArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  BooleanArray self() {
    return this;
  }

  @Override
  boolean[] newJavaArray(int length) {
    return new boolean[length];
  }

  @Override
  BooleanArray emptyOn(Device device, int length) {
    return device.booleans(length);
  }
}
