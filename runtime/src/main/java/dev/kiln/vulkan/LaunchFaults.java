package dev.kiln.vulkan;

import dev.kiln.KernelSpec;
import java.util.List;

/**
 * The fault buffer every kernel binds after its own buffers (see the processor's {@code Faults}):
 * zeroed before a launch, read after it, and turned into the exception Java would have thrown.
 */
final class LaunchFaults {
  static final int WORDS = 4;
  private static final int INDEX = 1;
  private static final int DIVISION_BY_ZERO = 2;
  private static final int LOCAL_ARRAY = 0x80000000;

  private final VulkanBuffer buffer;
  private final int[] words = new int[WORDS];

  LaunchFaults(VulkanBuffer buffer) {
    this.buffer = buffer;
  }

  VulkanBuffer buffer() {
    return buffer;
  }

  void clear() {
    buffer.write(new int[WORDS]);
  }

  /** Throws what Java would have, if one of several launches ({@code where}) recorded a fault. */
  void throwIfAny(String where) {
    buffer.read(words);
    switch (words[0]) {
      case 0 -> {}
      case INDEX -> throw new IndexOutOfBoundsException("Index " + words[2] + " out of bounds in " + where
          + " (line " + words[3] + ")");
      case DIVISION_BY_ZERO -> throw new ArithmeticException("/ by zero in " + where);
      default -> throw new IllegalStateException("unknown fault " + words[0] + " in " + where);
    }
  }

  /** Throws what Java would have, if the launch recorded a fault. */
  void throwIfAny(KernelSpec spec, Object[] args) {
    buffer.read(words);
    switch (words[0]) {
      case 0 -> {}
      case INDEX -> {
        String array;
        int length;
        if ((words[1] & LOCAL_ARRAY) != 0) {
          array = "a local array";
          length = words[1] & ~LOCAL_ARRAY;
        } else {
          List<KernelSpec.Param> buffers = spec.params().stream().filter(KernelSpec.Param::isBuffer).toList();
          array = "buffer '" + buffers.get(words[1]).name() + "'";
          length = bufferLength(args, words[1]);
        }
        throw new IndexOutOfBoundsException("Index " + words[2] + " out of bounds for length " + length + " of "
            + array + " in kernel " + spec + " (line " + words[3] + ")");
      }
      case DIVISION_BY_ZERO -> throw new ArithmeticException("/ by zero in kernel " + spec);
      default -> throw new IllegalStateException("unknown fault " + words[0] + " reported by kernel " + spec);
    }
  }

  private static int bufferLength(Object[] args, int binding) {
    int seen = 0;
    for (Object arg : args) {
      if (arg instanceof VulkanBuffer vulkanBuffer && seen++ == binding) {
        return vulkanBuffer.length();
      }
    }
    return -1;
  }
}
