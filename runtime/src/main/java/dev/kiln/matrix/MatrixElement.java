package dev.kiln.matrix;

/** The component type of the A and B matrices of a multiply-add, as their buffers hold its bits. */
public enum MatrixElement {
  /** IEEE binary16, the bits {@link Float#floatToFloat16} gives, in a {@code short[]}. */
  FLOAT16;

  /** The value of {@code bits}, exactly. */
  float decode(short bits) {
    return Float.float16ToFloat(bits);
  }

}
