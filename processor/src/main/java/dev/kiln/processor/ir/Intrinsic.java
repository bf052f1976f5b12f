package dev.kiln.processor.ir;

import java.util.List;

/**
 * Library functions a kernel may call, each with its result and parameter types: Java methods
 * with Java's exact results, the GPU's transcendental functions (within Vulkan's precision bounds
 * of Java's result), and subgroup operations (on the CPU backend a subgroup is one invocation).
 */
public enum Intrinsic {
  ABS_INT(PrimType.INT, PrimType.INT),
  ABS_FLOAT(PrimType.FLOAT, PrimType.FLOAT),
  MIN_INT(PrimType.INT, PrimType.INT, PrimType.INT),
  MAX_INT(PrimType.INT, PrimType.INT, PrimType.INT),
  MIN_FLOAT(PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT),
  MAX_FLOAT(PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT),
  ROUND(PrimType.INT, PrimType.FLOAT),
  SIGNUM(PrimType.FLOAT, PrimType.FLOAT),
  FLOOR(PrimType.FLOAT, PrimType.FLOAT),
  CEIL(PrimType.FLOAT, PrimType.FLOAT),
  FLOAT_TO_RAW_INT_BITS(PrimType.INT, PrimType.FLOAT),
  FLOAT_TO_INT_BITS(PrimType.INT, PrimType.FLOAT),
  INT_BITS_TO_FLOAT(PrimType.FLOAT, PrimType.INT),
  IS_NAN(PrimType.BOOLEAN, PrimType.FLOAT),
  IS_INFINITE(PrimType.BOOLEAN, PrimType.FLOAT),
  BIT_COUNT(PrimType.INT, PrimType.INT),
  LEADING_ZEROS(PrimType.INT, PrimType.INT),
  TRAILING_ZEROS(PrimType.INT, PrimType.INT),
  REVERSE_BITS(PrimType.INT, PrimType.INT),

  SQRT(PrimType.FLOAT, PrimType.FLOAT),
  INVERSE_SQRT(PrimType.FLOAT, PrimType.FLOAT),
  EXP(PrimType.FLOAT, PrimType.FLOAT),
  EXP2(PrimType.FLOAT, PrimType.FLOAT),
  LOG(PrimType.FLOAT, PrimType.FLOAT),
  LOG2(PrimType.FLOAT, PrimType.FLOAT),
  POW(PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT),
  SIN(PrimType.FLOAT, PrimType.FLOAT),
  COS(PrimType.FLOAT, PrimType.FLOAT),
  TAN(PrimType.FLOAT, PrimType.FLOAT),
  TANH(PrimType.FLOAT, PrimType.FLOAT),
  ATAN2(PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT),
  FMA(PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT),

  SUBGROUP_SIZE(PrimType.INT),
  SUBGROUP_INVOCATION(PrimType.INT),
  SUBGROUP_ID(PrimType.INT),
  NUM_SUBGROUPS(PrimType.INT),
  SUBGROUP_ADD_INT(PrimType.INT, PrimType.INT),
  SUBGROUP_ADD_FLOAT(PrimType.FLOAT, PrimType.FLOAT),
  SUBGROUP_MIN_INT(PrimType.INT, PrimType.INT),
  SUBGROUP_MIN_FLOAT(PrimType.FLOAT, PrimType.FLOAT),
  SUBGROUP_MAX_INT(PrimType.INT, PrimType.INT),
  SUBGROUP_MAX_FLOAT(PrimType.FLOAT, PrimType.FLOAT),
  /** The value of the invocation whose subgroup index is the second argument, a constant. */
  SUBGROUP_BROADCAST_INT(PrimType.INT, PrimType.INT, PrimType.INT),
  SUBGROUP_BROADCAST_FLOAT(PrimType.FLOAT, PrimType.FLOAT, PrimType.INT),
  /** Bit k set where invocation k of the subgroup (k below 32) passes true. */
  SUBGROUP_BALLOT(PrimType.INT, PrimType.BOOLEAN);

  private final PrimType result;
  private final List<PrimType> parameters;

  Intrinsic(PrimType result, PrimType... parameters) {
    this.result = result;
    this.parameters = List.of(parameters);
  }

  public PrimType result() {
    return result;
  }

  public List<PrimType> parameters() {
    return parameters;
  }
}
