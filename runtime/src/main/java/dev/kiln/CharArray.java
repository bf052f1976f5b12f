package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * A {@code char} array in device memory. Create one with {@link Device#chars} or {@link
 * Device#upload(char[])}.
 */
public final class CharArray extends DeviceArray<char[], CharArray> {
  CharArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  CharArray self() {
    return this;
  }

  @Override
  char[] newJavaArray(int length) {
    return new char[length];
  }

  @Override
  CharArray emptyOn(Device device, int length) {
    return device.chars(length);
  }
}
