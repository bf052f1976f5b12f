package dev.kiln.cpu;

import dev.kiln.NumericType;
import dev.kiln.backend.BackendBuffer;

/** A CPU-backend buffer: a Java array that kernels read and write directly. */
record CpuBuffer(NumericType type, Object array) implements BackendBuffer {
  @Override
  public int length() {
    return java.lang.reflect.Array.getLength(array);
  }

  @Override
  public void write(Object source) {
    if (source != array) {
      System.arraycopy(source, 0, array, 0, length());
    }
  }

  @Override
  public void read(Object target) {
    if (target != array) {
      System.arraycopy(array, 0, target, 0, length());
    }
  }

  @Override
  public void close() {}
}
