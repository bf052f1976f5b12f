package dev.kiln.library;

import dev.kiln.Gpu;

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
   * A float16's value for a product, in about eight GPU operations without a branch or a subnormal
   * float operand (which NVIDIA's driver reads as zero), for the GEMV lanes that decode every
   * element they read. In Java it is {@code Float.float16ToFloat(bits)} to the bit, NaNs included;
   * on a GPU a NaN comes out of the scaling multiply with the driver's bits, which is why this is
   * not the processor's lowering of {@code Float.float16ToFloat} (whose result a kernel may store
   * as it is), and why only code that feeds the value to arithmetic uses it.
   *
   * <p>The exponent and significand moved under a float's (bits 27 to 13) with the exponent's bias
   * raised by 224 (an OR: the exponent is below 32) and scaled by 2^-112 (two steps, so that
   * exponent 31 lands on the float's infinities and NaNs) give the magnitude {@code |v|} of every
   * value but the zeros and subnormals (exponent 0), which come out as {@code 2^-15 + |v| / 2}.
   * There {@code 2·scaled - 2^-14} is {@code |v|} (exact, and below {@code scaled}); for the other
   * values it is at least {@code scaled} (rounded or not: whether a device fuses the multiply-add
   * does not matter), and a NaN fails the comparison: the smaller of the two is the magnitude. The
   * sign is put back last, so a negative zero stays one.
   */
  static float half(short bits) {
    float scaled = Float.intBitsToFloat(((bits << 13) & 0x0fffe000) | (224 << 23)) * 0x1p-112f;
    float small = Gpu.fma(scaled, 2f, -0x1p-14f);
    float magnitude = small < scaled ? small : scaled;
    return Float.intBitsToFloat(Float.floatToRawIntBits(magnitude) | (bits & 0x80000000));
  }

  /** A bfloat16's value: the float whose upper 16 bits {@code bits} are. */
  static float bfloat(short bits) {
    return Float.intBitsToFloat(bits << 16);
  }
}
