package dev.kiln.processor.ir;

import java.util.List;

/**
 * Library functions a kernel may call, each with its result and parameter types. {@link #exact()}
 * ones give Java's result bit for bit on every device; the others are the GPU's transcendental
 * functions, within Vulkan's precision bounds of Java's result.
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

  SQRT(false, PrimType.FLOAT, PrimType.FLOAT),
  INVERSE_SQRT(false, PrimType.FLOAT, PrimType.FLOAT),
  EXP(false, PrimType.FLOAT, PrimType.FLOAT),
  EXP2(false, PrimType.FLOAT, PrimType.FLOAT),
  LOG(false, PrimType.FLOAT, PrimType.FLOAT),
  LOG2(false, PrimType.FLOAT, PrimType.FLOAT),
  POW(false, PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT),
  SIN(false, PrimType.FLOAT, PrimType.FLOAT),
  COS(false, PrimType.FLOAT, PrimType.FLOAT),
  TAN(false, PrimType.FLOAT, PrimType.FLOAT),
  TANH(false, PrimType.FLOAT, PrimType.FLOAT),
  ATAN2(false, PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT),
  FMA(false, PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT, PrimType.FLOAT);

  private final boolean exact;
  private final PrimType result;
  private final List<PrimType> parameters;

  Intrinsic(PrimType result, PrimType... parameters) {
    this(true, result, parameters);
  }

  Intrinsic(boolean exact, PrimType result, PrimType... parameters) {
    this.exact = exact;
    this.result = result;
    this.parameters = List.of(parameters);
  }

  public boolean exact() {
    return exact;
  }

  public PrimType result() {
    return result;
  }

  public List<PrimType> parameters() {
    return parameters;
  }
}
