package dev.kiln.abi;

import java.lang.invoke.MethodType;
import java.util.List;

/**
 * The contract between the modules Kiln's processor writes and the runtime that launches them,
 * defined once for both (they share no other code): where buffers, launch geometry, scalars and
 * faults go. Not for users: generated code and Kiln itself read it, and it changes with them.
 *
 * <p>Buffers bind to descriptor set 0, bindings 0, 1, … in parameter order, each with one element
 * more than its array (an empty array still has a binding; kernels read a length as the runtime
 * array's minus one), and the fault buffer after them. The push-constant block opens with the
 * dispatch's grid x size, its first workgroup along x (a launch larger than the device's
 * workgroup-count limit is split into dispatches), its grid y and z sizes, and its fault region; a
 * fused group of two or more arms then holds each arm's grid (x, y, z) in arm order; the scalar
 * parameters follow in parameter order, each at its natural alignment.
 */
public final class LaunchAbi {
  /** Offset of the dispatch's grid size along x in the push-constant block. */
  public static final int GRID_X = 0;

  /** Offset of the dispatch's first workgroup along x. */
  public static final int FIRST_GROUP = 4;

  /** Offset of the grid size along y. */
  public static final int GRID_Y = 8;

  /** Offset of the grid size along z. */
  public static final int GRID_Z = 12;

  /**
   * Offset of the launch's first fault region ({@link #FAULT_REGIONS_AT}): a kernel's faults go to
   * it, a fused group's arm k's to the one k after it.
   */
  public static final int FAULT_REGION = 16;

  /** Bytes of the launch geometry and fault region, the block's first part. */
  public static final int LAUNCH_BYTES = 20;

  /** Bytes of one arm's grid. */
  public static final int ARM_GRID_BYTES = 12;

  /** Push-constant bytes every Vulkan device offers. */
  public static final int PUSH_CONSTANT_LIMIT = 128;

  /**
   * Slots of the fault buffer, which keeps the fault Java would throw first: a batch's launches
   * (and a fused group's arms) run one after the other in Java, each one's invocations in order
   * (workgroups x fastest, then the invocations of each), so the fault that counts is that of the
   * lowest fault region (a launch's, or an arm's: {@link #FAULT_REGION}), and within it the lowest
   * invocation's. Word 0 counts the slots taken; word 1 holds the complement of the lowest faulting
   * region so far (an atomic max, from 0 for none); each region's word from {@link
   * #FAULT_REGIONS_AT} on the complement of its lowest faulting invocation's place. A faulting
   * invocation whose region is not above the lowest, and that lowers its region's place, takes the
   * next slot, modulo this many, for its fault: region, place, kind, array, index, source line. The
   * lowest region's lowest invocation lowers both last, so its slot is among the last taken; the
   * runtime reads the lowest region and place among them.
   */
  public static final int FAULT_SLOTS = 32;

  /**
   * Words of the fault buffer before its slots: the slots taken, and the complement of the lowest
   * region.
   */
  public static final int FAULT_HEADER_WORDS = 2;

  /** Words of a fault slot: the region, the invocation's place, kind, array, index, source line. */
  public static final int FAULT_SLOT_WORDS = 6;

  /** The word of the fault buffer where the regions' words start, one per region. */
  public static final int FAULT_REGIONS_AT = FAULT_HEADER_WORDS + FAULT_SLOTS * FAULT_SLOT_WORDS;

  /** The kind of an index out of an array's bounds. */
  public static final int FAULT_INDEX = 1;

  /** The kind of an integer division or remainder by zero. */
  public static final int FAULT_DIVISION_BY_ZERO = 2;

  /** A {@code Math.*Exact} method's overflow; the index word is 1 for int, 2 for long. */
  public static final int FAULT_OVERFLOW = 3;

  /** {@code Math.clamp} called with bounds out of order or NaN. */
  public static final int FAULT_ILLEGAL_ARGUMENT = 4;

  /**
   * Loops past {@link #LOOP_TURN_LIMIT} header entries in one subgroup, on a device that ends loops
   * there silently; the index word holds the count, the line word the loop's line.
   */
  public static final int FAULT_LOOP_LIMIT = 5;

  /**
   * A {@code System.arraycopy} whose range leaves an array: the kind word is this, or'ed with
   * {@link #copyFault}'s bits for which side and end and the element type; the index word holds the
   * offending index (the first one, or the first plus the length).
   */
  public static final int FAULT_COPY = 7;

  /** The element types a copy fault names, by their place in the kind word (bits 16 on). */
  private static final List<String> COPY_ELEMENTS =
      List.of("boolean", "byte", "short", "char", "int", "long", "float", "double");

  private static final int COPY_DESTINATION = 0x100;
  private static final int COPY_LAST = 0x200;

  /**
   * The kind word of a copy fault.
   *
   * @param destination whether the destination's range leaves its array, else the source's
   * @param last whether the range ends past the array, else starts below 0
   * @param element the arrays' element type, as Java names it
   * @return the kind word
   */
  public static int copyFault(boolean destination, boolean last, String element) {
    return FAULT_COPY
        | (destination ? COPY_DESTINATION : 0)
        | (last ? COPY_LAST : 0)
        | COPY_ELEMENTS.indexOf(element) << 16;
  }

  /**
   * Whether a fault's kind word is a copy's.
   *
   * @param kind the kind word
   * @return whether it is one of {@link #copyFault}'s
   */
  public static boolean isCopyFault(int kind) {
    return (kind & 0xff) == FAULT_COPY;
  }

  /**
   * What {@code System.arraycopy} says where a range leaves its array, as HotSpot words it: {@code
   * arraycopy: last source index 18 out of bounds for short[16]}.
   *
   * @param kind the fault's kind word ({@link #copyFault})
   * @param index the fault's index word
   * @param length the length of the array the range leaves
   * @return the message
   */
  public static String copyFaultMessage(int kind, int index, int length) {
    return copyFaultWords(kind, index)
        + " out of bounds for "
        + COPY_ELEMENTS.get(kind >>> 16)
        + "["
        + length
        + "]";
  }

  /**
   * The start of {@link #copyFaultMessage}, which needs no array: {@code arraycopy: last source
   * index 18}.
   *
   * @param kind the fault's kind word ({@link #copyFault})
   * @param index the fault's index word
   * @return the words
   */
  public static String copyFaultWords(int kind, int index) {
    boolean last = (kind & COPY_LAST) != 0;
    return "arraycopy: "
        + (last ? "last " : "")
        + ((kind & COPY_DESTINATION) != 0 ? "destination" : "source")
        + " index "
        + (last ? Integer.toUnsignedString(index) : Integer.toString(index));
  }

  /** The rows and columns of every cooperative-matrix tile (M = N = K). */
  public static final int MATRIX_SIDE = 16;

  /**
   * What a tile's first element and stride must be a multiple of, in bytes: Vulkan's matrix loads
   * and stores need it (VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986).
   */
  public static final int MATRIX_ALIGNMENT_BYTES = 16;

  /**
   * A cooperative-matrix tile whose offset or stride is no multiple of 16 bytes, which Vulkan's
   * matrix loads and stores require; the index word holds the offending offset or stride.
   */
  public static final int FAULT_MATRIX_ALIGNMENT = 6;

  /**
   * What {@link #FAULT_MATRIX_ALIGNMENT} says, before the offending value: both backends throw it.
   */
  public static final String MATRIX_ALIGNMENT_MESSAGE =
      "a matrix tile's offset and stride must be multiples of"
          + " 16 bytes (8 float16s, 4 floats), and this one's are not: ";

  /**
   * The id of the boolean specialization constant that turns loop counting on: the runtime sets it
   * on devices that cut loops (lavapipe ends a SIMD group's loops after 65,535 header entries in
   * all), and elsewhere it stays false and the driver drops the counting.
   */
  public static final int COUNT_LOOPS_SPEC_ID = 0;

  /**
   * The id of the boolean specialization constant that leaves out the bounds checks a launch
   * settles: the runtime sets it where the launch's values prove every {@link LaunchProof} of the
   * module, and the driver folds those checks away.
   */
  public static final int CHECKS_SETTLED_SPEC_ID = 1;

  /**
   * The id of the boolean specialization constant that picks the device's own conversion of float16
   * bits for {@code Gpu.float16ToFloat}: the runtime sets it where the driver keeps float16
   * subnormals (shaderDenormPreserveFloat16), and elsewhere the module's integer operations, exact
   * without them, stay.
   */
  public static final int HALF_CONVERSION_SPEC_ID = 2;

  /**
   * The first id of the specialization constants that hold the lengths of workgroup arrays sized by
   * a parameter ({@link SharedLength}), one id per parameter.
   */
  public static final int SHARED_LENGTH_SPEC_IDS_FROM = 3;

  /**
   * The smallest subgroup a device that cuts loops may have: lavapipe counts header entries per
   * SIMD group, one subgroup (4, 8 or 16 lanes with 128-, 256- or 512-bit vectors), so a counting
   * module keeps a count per subgroup in workgroup memory, {@code ceil(invocations / 4)} words.
   * Their number is a constant: NVIDIA's driver (580) misplaces cooperative-matrix loads from
   * workgroup memory in a module that also has a workgroup array sized by a specialization constant
   * (docs/DRIVER-GAPS.md).
   */
  public static final int LOOP_COUNT_MIN_SUBGROUP = 4;

  /** Header entries of all loops of a subgroup past which a counting module faults. */
  public static final int LOOP_TURN_LIMIT = 65_000;

  /**
   * The array word of an index fault on a workgroup or private array: this bit, or'ed with its
   * length.
   */
  public static final int FAULT_LOCAL_ARRAY = 0x80000000;

  /**
   * With {@link #FAULT_LOCAL_ARRAY}: the array's length is the launch's value of the parameter
   * whose {@link SharedLength} has the specialization constant whose id is or'ed in, not the id
   * itself.
   */
  public static final int FAULT_PARAMETER_LENGTH = 0x40000000;

  /**
   * The CPU twins of class {@code C}'s kernels and groups are the class {@code C + TWINS_SUFFIX}.
   */
  public static final String TWINS_SUFFIX = "$KilnCpu";

  /**
   * The name of a kernel's CPU twin method, or of a {@code group}'s: a JVM method name.
   *
   * @param name the kernel's or group's name
   * @param group whether it names a group
   * @return the method name
   */
  public static String twinMethod(String name, boolean group) {
    return (group ? "group$" : "kernel$") + name.replaceAll("[.;\\[/<>]", "_");
  }

  /**
   * The type of every CPU twin method: {@code (Object[] args, int[] grids, int dispatchX, int
   * dispatchY, int dispatchZ, int firstGroup, int endGroup, int subgroupSize)}. It runs workgroups
   * {@code firstGroup .. endGroup-1} of a dispatch of {@code dispatch*} invocations per axis, in
   * subgroups of {@code subgroupSize} lanes; {@code args} holds the arguments in parameter order
   * (Java arrays and boxed scalars), {@code grids} each arm's grid (x, y, z), three entries for a
   * kernel.
   */
  public static final MethodType TWIN_TYPE =
      MethodType.methodType(
          void.class,
          Object[].class,
          int[].class,
          int.class,
          int.class,
          int.class,
          int.class,
          int.class,
          int.class);

  private LaunchAbi() {}

  /**
   * Whether a launch of {@code arms} arms holds each arm's grid: a group of two or more.
   *
   * @param arms the number of arms, 0 for a kernel
   * @return whether the block holds arm grids
   */
  public static boolean hasArmGrids(int arms) {
    return arms > 1;
  }

  /**
   * The offset of arm {@code arm}'s grid, where {@link #hasArmGrids}.
   *
   * @param arm the arm's index
   * @return the offset in bytes
   */
  public static int armGridOffset(int arm) {
    return LAUNCH_BYTES + ARM_GRID_BYTES * arm;
  }

  /**
   * The offset of each scalar parameter, given their sizes in bytes in parameter order, for a
   * launch of {@code arms} arms; the block's size is the last offset plus its size.
   *
   * @param arms the number of arms, 0 for a kernel
   * @param scalarBytes each scalar's size in bytes
   * @return each scalar's offset in bytes
   */
  public static int[] scalarOffsets(int arms, int[] scalarBytes) {
    int[] offsets = new int[scalarBytes.length];
    int end = scalarsStart(arms);
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = Math.ceilDiv(end, scalarBytes[i]) * scalarBytes[i];
      end = offsets[i] + scalarBytes[i];
    }
    return offsets;
  }

  /**
   * The size of the push-constant block: the geometry, the arms' grids and the scalars.
   *
   * @param arms the number of arms, 0 for a kernel
   * @param scalarBytes each scalar's size in bytes, in parameter order
   * @return the size in bytes
   */
  public static int blockBytes(int arms, int[] scalarBytes) {
    int[] offsets = scalarOffsets(arms, scalarBytes);
    return offsets.length == 0
        ? scalarsStart(arms)
        : offsets[offsets.length - 1] + scalarBytes[offsets.length - 1];
  }

  /**
   * Where the scalars may start: after the geometry and the arms' grids.
   *
   * @param arms the number of arms, 0 for a kernel
   * @return the offset in bytes
   */
  public static int scalarsStart(int arms) {
    return LAUNCH_BYTES + (hasArmGrids(arms) ? ARM_GRID_BYTES * arms : 0);
  }
}
