package dev.kiln.vulkan;

import dev.kiln.NumericType;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One thread's buffers for launches on Java arrays, kept after a launch for the next one of the
 * same element type and length (a loop launching on the same arrays makes and frees none), up to a
 * few small buffers; larger or more are freed as before.
 */
final class ScratchBuffers {
  /** Buffers kept at most, and the largest kept. */
  static final int MAX_KEPT = 16;
  static final long MAX_BYTES = 1L << 20;

  private final Map<List<Object>, ArrayDeque<VulkanBuffer>> idle = new HashMap<>();
  private int kept;

  /** An idle buffer of {@code type} and {@code length}, or null. */
  VulkanBuffer take(NumericType type, int length) {
    ArrayDeque<VulkanBuffer> buffers = idle.get(List.of(type, length));
    VulkanBuffer buffer = buffers == null ? null : buffers.pollFirst();
    if (buffer != null) {
      kept--;
    }
    return buffer;
  }

  /** Keeps {@code buffer} for a later launch; false if it should be freed instead. */
  boolean keep(VulkanBuffer buffer) {
    if (kept >= MAX_KEPT || buffer.byteSize() > MAX_BYTES) {
      return false;
    }
    idle.computeIfAbsent(List.of(buffer.type(), buffer.length()), key -> new ArrayDeque<>()).addFirst(buffer);
    kept++;
    return true;
  }

  /** Frees every kept buffer. */
  void free() {
    idle.values().forEach(buffers -> buffers.forEach(VulkanBuffer::free));
    idle.clear();
    kept = 0;
  }
}
