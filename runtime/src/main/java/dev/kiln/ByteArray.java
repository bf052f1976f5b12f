package dev.kiln;

import dev.kiln.backend.BackendBuffer;

/**
 * A {@code byte} array in device memory. Create one with {@link Device#bytes} or {@link
 * Device#upload(byte[])}.
 */
public final class ByteArray extends DeviceArray<byte[], ByteArray> {
  ByteArray(Device device, BackendBuffer buffer) {
    super(device, buffer);
  }

  @Override
  ByteArray self() {
    return this;
  }

  @Override
  byte[] newJavaArray(int length) {
    return new byte[length];
  }

  @Override
  ByteArray emptyOn(Device device, int length) {
    return device.bytes(length);
  }
}
