package dev.kiln.processor.ir;

/**
 * Workgroup memory: an array that all invocations of a workgroup share, declared with {@code
 * Gpu.sharedFloats(length)}, {@code Gpu.sharedInts(length)} or the like for any element type at the
 * top of a kernel ({@link Stmt.DeclareShared} marks the place). Narrow elements ({@code byte},
 * {@code short}, {@code char}) are held widened, as ints, and booleans as booleans; {@code packed}
 * shorts ({@code Gpu.sharedPackedShorts}) in 16 bits.
 */
public record SharedArray(String name, PrimType element, Expr length, Site site, boolean packed)
    implements FixedArray {
  /**
   * {@code Gpu.sharedPackedShorts}: shorts held in 16 bits each (float16 bits on Vulkan), for
   * float16 tiles.
   */
  public static final String PACKED_SHORTS = "sharedPackedShorts";

  /** The {@code Gpu} method that declares it. */
  public String intrinsic() {
    return packed ? PACKED_SHORTS : intrinsic(element);
  }

  /**
   * The {@code Gpu} method that declares workgroup memory of {@code element}s: {@code
   * sharedFloats}.
   */
  public static String intrinsic(PrimType element) {
    return switch (element) {
      case INT -> "sharedInts";
      case FLOAT -> "sharedFloats";
      case LONG -> "sharedLongs";
      case DOUBLE -> "sharedDoubles";
      case BYTE -> "sharedBytes";
      case SHORT -> "sharedShorts";
      case CHAR -> "sharedChars";
      case BOOLEAN -> "sharedBooleans";
    };
  }
}
