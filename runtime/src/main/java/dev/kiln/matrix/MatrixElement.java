package dev.kiln.matrix;

/** The component type of the A and B matrices of a multiply-add, as their buffers hold its bits. */
public enum MatrixElement {
  /** IEEE binary16, the bits {@link Float#floatToFloat16} gives, in a {@code short[]}. */
  FLOAT16,
  /**
   * bfloat16: a float's upper 16 bits (sign, the float's 8 exponent bits, 7 significand bits), in a
   * {@code short[]}; {@code (short) (Float.floatToRawIntBits(x) >>> 16)} truncates a float to it.
   * Needs VK_KHR_shader_bfloat16 on Vulkan.
   */
  BFLOAT16;

  /** The value of {@code bits}, exactly. */
  float decode(short bits) {
    return switch (this) {
      case FLOAT16 -> Float.float16ToFloat(bits);
      case BFLOAT16 -> Float.intBitsToFloat(bits << 16);
    };
  }
}
