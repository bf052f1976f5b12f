package dev.kiln.processor.ir;

/** Atomic read-modify-write operations on int arrays; each yields the element's previous value. */
public enum AtomicOp {
  ADD("atomicAdd"),
  MIN("atomicMin"),
  MAX("atomicMax"),
  AND("atomicAnd"),
  OR("atomicOr"),
  XOR("atomicXor"),
  EXCHANGE("atomicExchange"),
  /** Stores the value only where the element equals the expected one. */
  COMPARE_EXCHANGE("atomicCompareExchange");

  private final String intrinsic;

  AtomicOp(String intrinsic) {
    this.intrinsic = intrinsic;
  }

  /** The name of the {@code dev.kiln.Gpu} method. */
  public String intrinsic() {
    return intrinsic;
  }
}
