package dev.kiln.backend;

import dev.kiln.NumericType;

/**
 * What a device does, behind {@code dev.kiln.Device}. Several threads may call a backend at once;
 * {@code Device} makes {@link #close} wait until no other call runs, and calls nothing after it.
 */
public interface Backend extends AutoCloseable {
  /** The device's name as its driver reports it. */
  String deviceName();

  /** {@code "vulkan"} or {@code "cpu"}. */
  String kind();

  /** Whether the Vulkan validation layer watches this device. */
  boolean validationEnabled();

  /** Bytes of pipeline cache loaded from disk when the device opened; 0 where there is none. */
  default long pipelineCacheLoadedBytes() {
    return 0;
  }

  /** A new zero-filled buffer of {@code length} elements. */
  BackendBuffer allocate(NumericType type, int length);

  /**
   * A buffer holding a copy of {@code array} (a {@code float[]} or {@code int[]}). The CPU backend
   * returns a view of the array itself.
   */
  default BackendBuffer stage(Object array) {
    BackendBuffer buffer = allocate(NumericType.ofArray(array), java.lang.reflect.Array.getLength(array));
    buffer.write(array);
    return buffer;
  }

  /**
   * Runs {@code launch} (its grids not all empty), waits for it, and returns the time it took on
   * the device in nanoseconds (GPU timestamps where the device has them, else -1; wall time on the
   * CPU backend). The launch's arguments are buffers of this backend and boxed scalars; it is read
   * during the call only.
   */
  long dispatch(Launch launch);

  /** A new, empty batch of launches on this device. */
  BackendBatch batch();

  @Override
  void close();
}
