package dev.kiln.backend;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.NumericType;

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

  /**
   * Whether the device may flush subnormal float or double values to zero: its driver does not
   * offer to preserve them (VK_KHR_shader_float_controls' shaderDenormPreserveFloat32/64).
   */
  default boolean flushesSubnormals() {
    return false;
  }

  /** The invocations of one subgroup. */
  int subgroupSize();

  /**
   * Whether the device offers {@code feature} to kernels; false where kernels run as Java (the CPU
   * backend runs them all, whatever they need).
   */
  default boolean offers(DeviceFeature feature) {
    return false;
  }

  /** Bytes of pipeline cache loaded from disk when the device opened; 0 where there is none. */
  default long pipelineCacheLoadedBytes() {
    return 0;
  }

  /** The memory a device offers, in bytes, and what of it this process may still allocate. */
  record Capacity(long totalBytes, long availableBytes) {}

  /** The device's memory, read now. */
  Capacity capacity();

  /** The native objects a backend holds: idle command recorders, open batches, live buffers. */
  record Resources(int idleRecorders, int openBatches, int buffers) {}

  /** What the backend holds now. */
  Resources resources();

  /** A new zero-filled buffer of {@code length} elements. */
  BackendBuffer allocate(NumericType type, int length);

  /**
   * Runs {@code launch} (its grids not all empty), waits for it, and returns the time it took on
   * the device in nanoseconds: with GPU timestamps where {@code timed} and the device has them,
   * else -1 (the CPU backend gives wall time either way). The launch's arguments are buffers of
   * this backend and boxed scalars; it is read during the call only.
   */
  long dispatch(Launch launch, boolean timed);

  /**
   * As {@link #dispatch}, for a launch whose buffer arguments are Java arrays: copies them to the
   * device, runs, and copies back each array the kernel may write (none if it faulted). The backend
   * may replace the launch's array arguments with its buffers during the call.
   */
  long dispatchOnArrays(Launch launch, boolean timed);

  /** A new, empty batch of launches on this device. */
  BackendBatch batch();

  /**
   * A new, empty batch of launches on this device that {@link BackendBatch#replay} runs again after
   * its submission, as often as asked, with no work per launch on the host.
   */
  BackendBatch recording();

  @Override
  void close();
}
