package dev.kiln.vulkan;

import dev.kiln.KernelSpec;
import java.util.List;
import java.util.function.Function;

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
    throwIfAny(where, fault -> "Index " + fault[2] + " out of bounds");
  }

  /** Throws what Java would have, if the launch recorded a fault. */
  void throwIfAny(KernelSpec spec, Object[] args) {
    throwIfAny("kernel " + spec, fault -> {
      if ((fault[1] & LOCAL_ARRAY) != 0) {
        return "Index " + fault[2] + " out of bounds for length " + (fault[1] & ~LOCAL_ARRAY) + " of a local array";
      }
      List<KernelSpec.Param> buffers = spec.params().stream().filter(KernelSpec.Param::isBuffer).toList();
      return "Index " + fault[2] + " out of bounds for length " + bufferLength(args, fault[1]) + " of buffer '"
          + buffers.get(fault[1]).name() + "'";
    });
  }

  /** Reads the fault words; {@code outOfBounds} describes an index fault from them. */
  private void throwIfAny(String where, Function<int[], String> outOfBounds) {
    buffer.read(words);
    switch (words[0]) {
      case 0 -> {}
      case INDEX -> throw new IndexOutOfBoundsException(outOfBounds.apply(words) + " in " + where + " (line " + words[3] + ")");
      case DIVISION_BY_ZERO -> throw new ArithmeticException("/ by zero in " + where);
      default -> throw new IllegalStateException("unknown fault " + words[0] + " in " + where);
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
