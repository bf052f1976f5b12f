package dev.kiln.vulkan;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.backend.Launch;
import java.util.function.Supplier;

/**
 * The fault buffer every kernel binds after its own buffers (see the processor's {@code Faults}):
 * its header zeroed before a submission, read once after it, and the fault of the lowest faulting
 * invocation among its slots turned into the exception Java would have thrown. Reading and clearing
 * allocate nothing; only a fault builds its message.
 */
final class LaunchFaults {
  static final int WORDS = LaunchAbi.FAULT_WORDS;
  private static final int INDEX = LaunchAbi.FAULT_INDEX;
  private static final int DIVISION_BY_ZERO = LaunchAbi.FAULT_DIVISION_BY_ZERO;
  private static final int OVERFLOW = LaunchAbi.FAULT_OVERFLOW;
  private static final int ILLEGAL_ARGUMENT = LaunchAbi.FAULT_ILLEGAL_ARGUMENT;
  private static final int MATRIX_ALIGNMENT = LaunchAbi.FAULT_MATRIX_ALIGNMENT;
  private static final int LOOP_LIMIT = LaunchAbi.FAULT_LOOP_LIMIT;
  private static final int LOCAL_ARRAY = LaunchAbi.FAULT_LOCAL_ARRAY;
  private static final int[] NONE = new int[LaunchAbi.FAULT_HEADER_WORDS];

  private static final int HEADER = LaunchAbi.FAULT_HEADER_WORDS;
  private static final int SLOT = LaunchAbi.FAULT_SLOT_WORDS;

  private final VulkanBuffer buffer;
  /** The buffer's words, read after a launch: the header, and the slots where it counts any. */
  private final int[] read = new int[WORDS];
  /**
   * The fault of the lowest invocation among the slots: kind, array (a binding, or a local array's
   * length with the top bit), index, line; kind 0 for none.
   */
  private final int[] words = new int[4];

  LaunchFaults(VulkanBuffer buffer) {
    this.buffer = buffer;
  }

  VulkanBuffer buffer() {
    return buffer;
  }

  /** Zeroes the header: no slot taken, no place. */
  void clear() {
    buffer.write(NONE, 0, 0, HEADER);
  }

  /**
   * Reads the buffer into {@link #words}: the fault of the lowest invocation among the slots taken
   * (its slot is among the last {@link LaunchAbi#FAULT_SLOTS} taken), or kind 0.
   */
  private void readLowest() {
    buffer.read(read, 0, 0, 1);
    words[0] = 0;
    if (read[0] == 0) {
      return;
    }
    int slots = Integer.compareUnsigned(read[0], LaunchAbi.FAULT_SLOTS) < 0 ? read[0] : LaunchAbi.FAULT_SLOTS;
    buffer.read(read, HEADER, HEADER, slots * SLOT);
    int lowest = HEADER;
    for (int at = HEADER + SLOT; at < HEADER + slots * SLOT; at += SLOT) {
      if (Integer.compareUnsigned(read[at], read[lowest]) < 0) {
        lowest = at;
      }
    }
    System.arraycopy(read, lowest + 1, words, 0, 4);
  }

  /** Throws what Java would have, if one of a batch's launches recorded a fault; {@code where} names them. */
  void throwIfAny(Supplier<String> where) {
    readLowest();
    if (words[0] != 0) {
      throw exception(where.get(), "Index " + words[2] + " out of bounds");
    }
  }

  /** Throws what Java would have, if {@code launch} recorded a fault. */
  void throwIfAny(Launch launch) {
    readLowest();
    if (words[0] == 0) {
      return;
    }
    KernelSpec spec = launch.spec();
    boolean local = (words[1] & LOCAL_ARRAY) != 0;
    int length = local ? words[1] & ~LOCAL_ARRAY : bufferLength(launch, words[1]);
    String array = local ? "a local array"
        : "buffer '" + spec.params().stream().filter(KernelSpec.Param::isBuffer).toList().get(words[1]).name() + "'";
    if (LaunchAbi.isCopyFault(words[0])) {
      throw new ArrayIndexOutOfBoundsException(LaunchAbi.copyFaultMessage(words[0], words[2], length) + " (" + array
          + ") in kernel " + spec + " (line " + words[3] + ")");
    }
    throw exception("kernel " + spec, "Index " + words[2] + " out of bounds for length " + length + " of " + array);
  }

  private RuntimeException exception(String where, String outOfBounds) {
    if (LaunchAbi.isCopyFault(words[0])) { // a batch's: the array's length is not known here
      return new ArrayIndexOutOfBoundsException(LaunchAbi.copyFaultWords(words[0], words[2]) + " out of bounds in "
          + where + " (line " + words[3] + ")");
    }
    return switch (words[0]) {
      case INDEX -> new ArrayIndexOutOfBoundsException(outOfBounds + " in " + where + " (line " + words[3] + ")");
      case DIVISION_BY_ZERO -> new ArithmeticException("/ by zero in " + where + (words[3] != 0 ? " (line " + words[3] + ")" : ""));
      case OVERFLOW -> new ArithmeticException((words[2] == 2 ? "long" : "integer") + " overflow in " + where);
      case ILLEGAL_ARGUMENT -> new IllegalArgumentException("Math.clamp's min is greater than its max, or NaN, in " + where);
      case MATRIX_ALIGNMENT -> new IllegalArgumentException(LaunchAbi.MATRIX_ALIGNMENT_MESSAGE + words[2] + " in " + where
          + " (line " + words[3] + ")");
      case LOOP_LIMIT -> new IllegalStateException("a subgroup of " + where + " entered its loops' headers more than "
          + LaunchAbi.LOOP_TURN_LIMIT + " times (the loop on line " + words[3] + "); this device (lavapipe) ends the"
          + " loops of a subgroup, whose invocations run together, silently after 65,535, so the results would be"
          + " wrong. Fix: run it on another device, or spread the work over more invocations with fewer loop turns"
          + " each");
      default -> new IllegalStateException("unknown fault " + words[0] + " in " + where);
    };
  }

  private static int bufferLength(Launch launch, int binding) {
    KernelSpec spec = launch.spec();
    for (int param = 0; param < spec.params().size(); param++) {
      if (launch.arg(param) instanceof VulkanBuffer vulkanBuffer && spec.slot(param) == binding) {
        return vulkanBuffer.length();
      }
    }
    return -1;
  }
}
