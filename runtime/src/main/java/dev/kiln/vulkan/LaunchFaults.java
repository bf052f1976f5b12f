package dev.kiln.vulkan;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.abi.NumericType;
import dev.kiln.abi.SharedLength;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fault buffers every kernel binds after its own buffers (see the processor's {@code Faults}):
 * each holds {@link #REGIONS} fault regions, one per launch of a batch (a fused group's launch
 * takes one per arm), so that the fault kept is the one Java would throw first: the lowest region's
 * lowest invocation's. A single launch uses region 0 of the first buffer; a batch of more launches
 * moves on to further buffers, made once and kept. The regions taken are zeroed before a submission
 * and read once after it; only a fault builds its message, and nothing else allocates.
 */
final class LaunchFaults {
  /** Fault regions per buffer: a batch's launches past them move on to the next buffer. */
  private static final int REGIONS = 1024;

  private static final int HEADER = LaunchAbi.FAULT_HEADER_WORDS;
  private static final int SLOT = LaunchAbi.FAULT_SLOT_WORDS;
  private static final int REGIONS_AT = LaunchAbi.FAULT_REGIONS_AT;
  private static final int WORDS = REGIONS_AT + REGIONS;
  private static final int INDEX = LaunchAbi.FAULT_INDEX;
  private static final int DIVISION_BY_ZERO = LaunchAbi.FAULT_DIVISION_BY_ZERO;
  private static final int OVERFLOW = LaunchAbi.FAULT_OVERFLOW;
  private static final int ILLEGAL_ARGUMENT = LaunchAbi.FAULT_ILLEGAL_ARGUMENT;
  private static final int MATRIX_ALIGNMENT = LaunchAbi.FAULT_MATRIX_ALIGNMENT;
  private static final int LOOP_LIMIT = LaunchAbi.FAULT_LOOP_LIMIT;
  private static final int LOCAL_ARRAY = LaunchAbi.FAULT_LOCAL_ARRAY;
  private static final int[] ZEROS = new int[REGIONS];

  private final VulkanBackend backend;
  private final List<VulkanBuffer> buffers = new ArrayList<>();

  /**
   * The regions taken since the last {@link #clear}, over all buffers in order (with gaps a group
   * skipped).
   */
  private int taken;

  /**
   * The launches that took them, in order, and each one's first region: kept for the next
   * recordings.
   */
  private KernelSpec[] launched = new KernelSpec[16];

  private int[] firstRegions = new int[16];
  private int launches;

  /** The buffer's words, read after a launch: the header, and the slots where it counts any. */
  private final int[] read = new int[REGIONS_AT];

  /**
   * The fault Java would throw first among the slots: kind, array (a binding, or a local array's
   * length with the top bit), index, line; kind 0 for none.
   */
  private final int[] words = new int[4];

  /** The region of {@link #words}' fault, over all buffers in order. */
  private int region;

  LaunchFaults(VulkanBackend backend) {
    this.backend = backend;
    buffers.add(fresh());
  }

  private VulkanBuffer fresh() {
    VulkanBuffer buffer = backend.staging(NumericType.INT, WORDS);
    buffer.write(ZEROS, 0, 0, HEADER);
    buffer.write(ZEROS, 0, REGIONS_AT, REGIONS);
    return buffer;
  }

  /**
   * Zeroes what the last recording's launches took: the headers (no slot taken, no region), and the
   * regions' places.
   */
  void clear() {
    rearm();
    taken = 0;
    Arrays.fill(launched, 0, launches, null);
    launches = 0;
  }

  /**
   * Zeroes what the recorded launches took, keeping them taken: for a recording submitted again.
   */
  void rearm() {
    for (int first = 0; first < Math.max(taken, 1); first += REGIONS) {
      VulkanBuffer buffer = buffers.get(first / REGIONS);
      buffer.write(ZEROS, 0, 0, HEADER);
      buffer.write(ZEROS, 0, REGIONS_AT, Math.min(REGIONS, taken - first));
    }
  }

  /**
   * Takes the next regions, in one buffer, for a launch of {@code spec} (one, or a fused group's
   * one per arm); returns the first one, numbered over all buffers in order.
   */
  int take(KernelSpec spec) {
    int count = spec.gridCount();
    if (taken % REGIONS + count > REGIONS) {
      taken = Math.ceilDiv(taken, REGIONS) * REGIONS;
    }
    if (taken / REGIONS == buffers.size()) {
      buffers.add(fresh());
    }
    if (launches == launched.length) {
      launched = Arrays.copyOf(launched, 2 * launches);
      firstRegions = Arrays.copyOf(firstRegions, 2 * launches);
    }
    launched[launches] = spec;
    firstRegions[launches++] = taken;
    int first = taken;
    taken += count;
    return first;
  }

  /** The buffer {@code region} (numbered over all buffers) is in. */
  VulkanBuffer buffer(int region) {
    return buffers.get(region / REGIONS);
  }

  /** {@code region}'s index in its buffer. */
  static int indexInBuffer(int region) {
    return region % REGIONS;
  }

  /** Frees the buffers. */
  void free() {
    buffers.forEach(VulkanBuffer::free);
    buffers.clear();
  }

  /**
   * Reads the buffers the regions taken are in, in order, into {@link #words} and {@link #region}:
   * the fault of the lowest region's lowest invocation among the first buffer's slots that has any
   * (that fault's slot is among the last {@link LaunchAbi#FAULT_SLOTS} taken), or kind 0.
   */
  private void readLowest() {
    words[0] = 0;
    for (int first = 0; first < taken; first += REGIONS) {
      VulkanBuffer buffer = buffers.get(first / REGIONS);
      buffer.read(read, 0, 0, 1);
      if (read[0] == 0) {
        continue;
      }
      int slots =
          Integer.compareUnsigned(read[0], LaunchAbi.FAULT_SLOTS) < 0
              ? read[0]
              : LaunchAbi.FAULT_SLOTS;
      buffer.read(read, HEADER, HEADER, slots * SLOT);
      int lowest = HEADER;
      for (int at = HEADER + SLOT; at < HEADER + slots * SLOT; at += SLOT) {
        int byRegion = Integer.compareUnsigned(read[at], read[lowest]);
        if (byRegion < 0
            || byRegion == 0 && Integer.compareUnsigned(read[at + 1], read[lowest + 1]) < 0) {
          lowest = at;
        }
      }
      region = first + read[lowest];
      System.arraycopy(read, lowest + 2, words, 0, 4);
      return;
    }
  }

  /**
   * Throws what Java would have, if one of a batch's launches recorded a fault: the first faulting
   * launch's, named in the message ("kernel K (launch n of m in a batch)").
   */
  void throwIfAnyInBatch() {
    readLowest();
    if (words[0] != 0) {
      int found = Arrays.binarySearch(firstRegions, 0, launches, region);
      int launch =
          found >= 0 ? found : -found - 2; // a group's later arms' regions follow its first
      throw exception(
          "kernel "
              + launched[launch]
              + " (launch "
              + (launch + 1)
              + " of "
              + launches
              + " in a batch)",
          "Index " + words[2] + " out of bounds");
    }
  }

  /**
   * The launch's length of the workgroup arrays whose length specialization constant {@code specId}
   * holds.
   */
  private static int parameterLength(Launch launch, int specId) {
    for (SharedLength length : KernelDescriptions.of(launch.spec()).sharedLengths()) {
      if (length.specId() == specId) {
        return (int) launch.scalar(length.param());
      }
    }
    throw new IllegalStateException(
        "a fault on a workgroup array sized by constant "
            + specId
            + ", which "
            + launch.spec()
            + " does not describe");
  }

  /**
   * Throws what Java would have, if {@code launch} recorded a fault (telling it the fault's arm).
   */
  void throwIfAny(Launch launch) {
    readLowest();
    if (words[0] == 0) {
      return;
    }
    launch.faultArm(region); // a single launch's regions are its arms'
    KernelSpec spec = launch.spec();
    boolean local = (words[1] & LOCAL_ARRAY) != 0;
    int length =
        !local
            ? bufferLength(launch, words[1])
            : (words[1] & LaunchAbi.FAULT_PARAMETER_LENGTH) != 0
                ? parameterLength(
                    launch, words[1] & ~(LOCAL_ARRAY | LaunchAbi.FAULT_PARAMETER_LENGTH))
                : words[1] & ~LOCAL_ARRAY;
    String array =
        local
            ? "a local array"
            : "buffer '"
                + spec.params().stream()
                    .filter(KernelSpec.Param::isBuffer)
                    .toList()
                    .get(words[1])
                    .name()
                + "'";
    if (LaunchAbi.isCopyFault(words[0])) {
      throw new ArrayIndexOutOfBoundsException(
          LaunchAbi.copyFaultMessage(words[0], words[2], length)
              + " ("
              + array
              + ") in kernel "
              + spec
              + " (line "
              + words[3]
              + ")");
    }
    throw exception(
        "kernel " + spec,
        "Index " + words[2] + " out of bounds for length " + length + " of " + array);
  }

  private RuntimeException exception(String where, String outOfBounds) {
    if (LaunchAbi.isCopyFault(words[0])) { // a batch's: the array's length is not known here
      return new ArrayIndexOutOfBoundsException(
          LaunchAbi.copyFaultWords(words[0], words[2])
              + " out of bounds in "
              + where
              + " (line "
              + words[3]
              + ")");
    }
    return switch (words[0]) {
      case INDEX ->
          new ArrayIndexOutOfBoundsException(
              outOfBounds + " in " + where + " (line " + words[3] + ")");
      case DIVISION_BY_ZERO ->
          new ArithmeticException(
              "/ by zero in " + where + (words[3] != 0 ? " (line " + words[3] + ")" : ""));
      case OVERFLOW ->
          new ArithmeticException((words[2] == 2 ? "long" : "integer") + " overflow in " + where);
      case ILLEGAL_ARGUMENT ->
          new IllegalArgumentException(
              "Math.clamp's min is greater than its max, or NaN, in " + where);
      case MATRIX_ALIGNMENT ->
          new IllegalArgumentException(
              LaunchAbi.MATRIX_ALIGNMENT_MESSAGE
                  + words[2]
                  + " in "
                  + where
                  + " (line "
                  + words[3]
                  + ")");
      case LOOP_LIMIT ->
          new IllegalStateException(
              "a subgroup of "
                  + where
                  + " entered its loops' headers more than "
                  + LaunchAbi.LOOP_TURN_LIMIT
                  + " times (the loop on line "
                  + words[3]
                  + "); this device (lavapipe) ends the"
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
