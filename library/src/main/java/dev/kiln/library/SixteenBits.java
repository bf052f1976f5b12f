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

  /**
   * A float16's value for a product, in about a dozen operations without a branch or a subnormal
   * float operand (which NVIDIA's driver reads as zero), for the GEMV lanes that decode every
   * element they read. In Java it is {@code Float.float16ToFloat(bits)} to the bit, NaNs included;
   * on a GPU a NaN comes out of the scaling multiply with the driver's bits, which is why this is
   * not the processor's lowering of {@code Float.float16ToFloat} (whose result a kernel may store
   * as it is), and why only code that feeds the value to arithmetic uses it. The bits moved under a
   * float's ({@code t}: sign at bit 31, exponent and significand at bits 27 to 13) with the
   * exponent's bias raised by 224 and scaled by 2^-112 (two steps, so that exponent 31 lands on the
   * float's infinities and NaNs) give every value but the zeros and subnormals (exponent 0), which
   * come out as {@code ±(2^-15 + |v| / 2)}: less {@code ±2^-15} and doubled (both exact), with the
   * sign put back for a negative zero, they are {@code v}.
   */
  static float half(short bits) {
    int t = (bits << 13) & 0x8fffe000;
    float scaled = Float.intBitsToFloat(t + (224 << 23)) * 0x1p-112f;
    float small = (scaled - Float.intBitsToFloat((t & 0x80000000) | 0x38000000)) * 2f;
    float signed = Float.intBitsToFloat(Float.floatToRawIntBits(small) | (t & 0x80000000));
    return (bits & 0x7c00) != 0 ? scaled : signed;
  }

  /** A bfloat16's value: the float whose upper 16 bits {@code bits} are. */
  static float bfloat(short bits) {
    return Float.intBitsToFloat(bits << 16);
  }
}
