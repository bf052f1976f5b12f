package dev.kiln.vulkan;

import dev.kiln.abi.NumericType;

/**
 * A device's buffers for launches on Java arrays and for transfers, kept after use for the next one
 * of the same element type and length (a loop launching on the same arrays makes and frees none),
 * up to {@link #MAX_KEPT} buffers of {@link #MAX_BYTES} together; others are freed as before. Large
 * ones are worth keeping most: on the H200 machine allocating 256 MiB of host memory for a transfer
 * cost more than the transfer. Taking and keeping allocate nothing; threads take turns.
 */
final class ScratchBuffers {
  static final int MAX_KEPT = 16;
  static final long MAX_BYTES = 1L << 30;

  private final VulkanBuffer[] idle = new VulkanBuffer[MAX_KEPT];
  private int kept;
  private long keptBytes;

  /** An idle buffer of {@code type} and {@code length}, or null. */
  synchronized VulkanBuffer take(NumericType type, int length) {
    for (int i = kept - 1; i >= 0; i--) {
      VulkanBuffer buffer = idle[i];
      if (buffer.type() == type && buffer.length() == length) {
        idle[i] = idle[--kept];
        idle[kept] = null;
        keptBytes -= buffer.byteSize();
        return buffer;
      }
    }
    return null;
  }

  /** Keeps {@code buffer} for a later launch; false if it should be freed instead. */
  synchronized boolean keep(VulkanBuffer buffer) {
    if (kept == MAX_KEPT || keptBytes + buffer.byteSize() > MAX_BYTES) {
      return false;
    }
    idle[kept++] = buffer;
    keptBytes += buffer.byteSize();
    return true;
  }

  /** Frees every kept buffer. */
  synchronized void free() {
    for (int i = 0; i < kept; i++) {
      idle[i].free();
      idle[i] = null;
    }
    kept = 0;
    keptBytes = 0;
  }
}
