package dev.kiln.library;

/**
 * The values of the library's 16-bit floats, for the kernels that decode them as they read them.
 */
final class SixteenBits {
  private SixteenBits() {}

  /**
   * A 16-bit float's value, exactly: float16 bits ({@code Float.float16ToFloat}), or bfloat16 bits
   * (a float's upper 16 bits) where {@code bfloat} is not 0.
   */
  static float decode(short bits, int bfloat) {
    return bfloat != 0 ? bfloat(bits) : Float.float16ToFloat(bits);
  }

  /** A bfloat16's value: the float whose upper 16 bits {@code bits} are. */
  static float bfloat(short bits) {
    return Float.intBitsToFloat(bits << 16);
  }
}
