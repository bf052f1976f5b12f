package dev.kiln.processor.ir;

/**
 * Workgroup memory: an array that all invocations of a workgroup share, declared with
 * {@code Gpu.sharedFloats(length)} or {@code Gpu.sharedInts(length)} at the top of a kernel
 * ({@link Stmt.DeclareShared} marks the place).
 */
public record SharedArray(String name, PrimType element, Expr length, Site site) implements FixedArray {
  /** The {@code Gpu} method that declares it. */
  public String intrinsic() {
    return element == PrimType.INT ? "sharedInts" : "sharedFloats";
  }
}
