package dev.kiln.processor.ir;

/**
 * Library functions a kernel may call, each with its result and parameter types: Java methods with
 * Java's exact results, the GPU's transcendental functions (within Vulkan's precision bounds of
 * Java's result), and subgroup operations (which the CPU backend emulates:
 * dev.kiln.abi.SubgroupLanes).
 */
public enum Intrinsic {
  // Java's methods, exact; ABS, MIN, MAX, SIGNUM, FLOOR, CEIL and SQRT take the argument's type
  ABS(null),
  // Math's *Exact methods: the operation, or Java's ArithmeticException where it overflows
  ADD_EXACT(null),
  SUBTRACT_EXACT(null),
  MULTIPLY_EXACT(null),
  NEGATE_EXACT(null),
  TO_INT_EXACT(PrimType.INT),
  /**
   * {@code Math.clamp} on three values of one type; IllegalArgumentException where the bounds are
   * out of order or NaN.
   */
  CLAMP(null),
  MIN(null),
  MAX(null),
  /** {@code Math.round}: an int for a float, a long for a double. */
  ROUND(null),
  /**
   * {@code Math.rint} up to the sign of a zero result, which the lowering copies from the argument.
   */
  RINT(null),
  SIGNUM(null),
  FLOOR(null),
  CEIL(null),
  FLOAT_TO_RAW_INT_BITS(PrimType.INT),
  FLOAT_TO_INT_BITS(PrimType.INT),
  INT_BITS_TO_FLOAT(PrimType.FLOAT),
  DOUBLE_TO_RAW_LONG_BITS(PrimType.LONG),
  LONG_BITS_TO_DOUBLE(PrimType.DOUBLE),
  IS_NAN(PrimType.BOOLEAN),
  IS_INFINITE(PrimType.BOOLEAN),
  BIT_COUNT(PrimType.INT),
  LEADING_ZEROS(PrimType.INT),
  TRAILING_ZEROS(PrimType.INT),
  REVERSE_BITS(PrimType.INT),

  // the GPU's, within Vulkan's precision (SQRT of a double too)
  SQRT(null),
  INVERSE_SQRT(PrimType.FLOAT),
  EXP(PrimType.FLOAT),
  EXP2(PrimType.FLOAT),
  LOG(PrimType.FLOAT),
  LOG2(PrimType.FLOAT),
  POW(PrimType.FLOAT),
  SIN(PrimType.FLOAT),
  COS(PrimType.FLOAT),
  TAN(PrimType.FLOAT),
  TANH(PrimType.FLOAT),
  ATAN2(PrimType.FLOAT),
  FMA(PrimType.FLOAT),
  /**
   * The device's conversion of binary16 bits (an int's low 16) to a float: exact where it keeps
   * binary16 subnormals, a NaN's bits its own; only under {@link #HALF_CONVERSION_EXACT}.
   */
  UNPACK_HALF(PrimType.FLOAT),
  /**
   * Whether the device's binary16 conversion keeps subnormals: a specialization constant the
   * runtime sets (true on the CPU backend, whose conversion is Java's).
   */
  HALF_CONVERSION_EXACT(PrimType.BOOLEAN),

  // subgroups
  SUBGROUP_SIZE(PrimType.INT),
  SUBGROUP_INVOCATION(PrimType.INT),
  SUBGROUP_ID(PrimType.INT),
  NUM_SUBGROUPS(PrimType.INT),
  SUBGROUP_ADD(null),
  SUBGROUP_MIN(null),
  SUBGROUP_MAX(null),
  /** The value of the invocation whose subgroup index is the second argument, a constant. */
  SUBGROUP_BROADCAST(null),
  /** Bit k set where invocation k of the subgroup (k below 32) passes true. */
  SUBGROUP_BALLOT(PrimType.INT),
  /** Whether some active invocation of the subgroup passes true. */
  SUBGROUP_ANY(PrimType.BOOLEAN),
  /** Whether every active invocation of the subgroup passes true. */
  SUBGROUP_ALL(PrimType.BOOLEAN),
  /** True in one active invocation of the subgroup, the same one for all. */
  SUBGROUP_ELECT(PrimType.BOOLEAN),
  /** The value of the invocation whose subgroup index is the second argument. */
  SUBGROUP_SHUFFLE(null),
  /** The value of the invocation whose subgroup index is this one's xor the second argument. */
  SUBGROUP_SHUFFLE_XOR(null),
  /** The value of the invocation the second argument below this one in the subgroup. */
  SUBGROUP_SHUFFLE_UP(null),
  /** The value of the invocation the second argument above this one in the subgroup. */
  SUBGROUP_SHUFFLE_DOWN(null),
  /** The sum over the subgroup's active invocations up to this one, this one included. */
  SUBGROUP_INCLUSIVE_ADD(null),
  /** The sum over the subgroup's active invocations below this one (0 in the first). */
  SUBGROUP_EXCLUSIVE_ADD(null),
  /**
   * The sum over the active invocations of this one's cluster: the second argument, a constant
   * power of two, consecutive lanes.
   */
  SUBGROUP_CLUSTERED_ADD(null),
  SUBGROUP_CLUSTERED_MIN(null),
  SUBGROUP_CLUSTERED_MAX(null),
  /** Bit k set where invocation k of the subgroup (k below 32) has this one's value. */
  SUBGROUP_PARTITION(PrimType.INT),
  /** The sum over the active invocations whose bits the second argument (a partition) sets. */
  SUBGROUP_PARTITIONED_ADD(null),
  SUBGROUP_PARTITIONED_MIN(null),
  SUBGROUP_PARTITIONED_MAX(null);

  private final PrimType result;

  Intrinsic(PrimType result) {
    this.result = result;
  }

  /** Whether the function is a subgroup operation or reads a subgroup built-in. */
  public boolean isSubgroup() {
    return switch (this) {
      case SUBGROUP_SIZE,
          SUBGROUP_INVOCATION,
          SUBGROUP_ID,
          NUM_SUBGROUPS,
          SUBGROUP_ADD,
          SUBGROUP_MIN,
          SUBGROUP_MAX,
          SUBGROUP_BROADCAST,
          SUBGROUP_BALLOT,
          SUBGROUP_ANY,
          SUBGROUP_ALL,
          SUBGROUP_ELECT,
          SUBGROUP_SHUFFLE,
          SUBGROUP_SHUFFLE_XOR,
          SUBGROUP_SHUFFLE_UP,
          SUBGROUP_SHUFFLE_DOWN,
          SUBGROUP_INCLUSIVE_ADD,
          SUBGROUP_EXCLUSIVE_ADD,
          SUBGROUP_CLUSTERED_ADD,
          SUBGROUP_CLUSTERED_MIN,
          SUBGROUP_CLUSTERED_MAX,
          SUBGROUP_PARTITION,
          SUBGROUP_PARTITIONED_ADD,
          SUBGROUP_PARTITIONED_MIN,
          SUBGROUP_PARTITIONED_MAX ->
          true;
      default -> false;
    };
  }

  /**
   * Whether the function combines the values of a subgroup's lanes: a subgroup function other than
   * its built-ins.
   */
  public boolean combinesLanes() {
    return isSubgroup()
        && this != SUBGROUP_SIZE
        && this != SUBGROUP_INVOCATION
        && this != SUBGROUP_ID
        && this != NUM_SUBGROUPS;
  }

  /** Whether the second argument is a cluster size, a constant power of two. */
  public boolean isClustered() {
    return this == SUBGROUP_CLUSTERED_ADD
        || this == SUBGROUP_CLUSTERED_MIN
        || this == SUBGROUP_CLUSTERED_MAX;
  }

  /** Whether the function is an {@code *Exact} method, which may fault with an overflow. */
  public boolean exact() {
    return this == ADD_EXACT
        || this == SUBTRACT_EXACT
        || this == MULTIPLY_EXACT
        || this == NEGATE_EXACT
        || this == TO_INT_EXACT;
  }

  /** Whether a call may fault: an {@code *Exact} method's overflow, or a clamp's bounds. */
  public boolean mayFault() {
    return exact() || this == CLAMP;
  }

  /** The result type for arguments whose first has type {@code first}. */
  public PrimType result(PrimType first) {
    if (this == ROUND) {
      return first == PrimType.DOUBLE ? PrimType.LONG : PrimType.INT;
    }
    return result == null ? first : result;
  }
}
