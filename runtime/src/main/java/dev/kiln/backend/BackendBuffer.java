package dev.kiln.backend;

import dev.kiln.abi.NumericType;

/** Device memory holding {@link #length()} values of one {@link NumericType}. */
public interface BackendBuffer extends AutoCloseable {
  NumericType type();

  int length();

  /** Copies {@code array} (of this buffer's type and length) into the buffer. */
  default void write(Object array) {
    write(array, 0, 0, length());
  }

  /** Copies the buffer into {@code array} (of this buffer's type and length). */
  default void read(Object array) {
    read(array, 0, 0, length());
  }

  /**
   * Copies {@code length} values from {@code array[arrayOffset...]} to elements {@code offset...}.
   */
  void write(Object array, int arrayOffset, int offset, int length);

  /**
   * Copies {@code length} values from elements {@code offset...} to {@code array[arrayOffset...]}.
   */
  void read(Object array, int arrayOffset, int offset, int length);

  @Override
  void close();
}
