package dev.kiln.cpu;

import dev.kiln.abi.NumericType;
import dev.kiln.backend.BackendBuffer;

/** A CPU-backend buffer: a Java array that kernels read and write directly. */
record CpuBuffer(NumericType type, Object array) implements BackendBuffer {
  @Override
  public int length() {
    return java.lang.reflect.Array.getLength(array);
  }

  @Override
  public void write(Object source, int sourceOffset, int offset, int length) {
    if (source != array || sourceOffset != offset) {
      System.arraycopy(source, sourceOffset, array, offset, length);
    }
  }

  @Override
  public void read(Object target, int targetOffset, int offset, int length) {
    if (target != array || targetOffset != offset) {
      System.arraycopy(array, offset, target, targetOffset, length);
    }
  }

  @Override
  public void close() {}
}
