package dev.kiln.backend;

import dev.kiln.NumericType;

/** Device memory holding {@link #length()} values of one {@link NumericType}. */
public interface BackendBuffer extends AutoCloseable {
  NumericType type();

  int length();

  /** Copies {@code array} (of this buffer's type and length) into the buffer. */
  void write(Object array);

  /** Copies the buffer into {@code array} (of this buffer's type and length). */
  void read(Object array);

  @Override
  void close();
}
