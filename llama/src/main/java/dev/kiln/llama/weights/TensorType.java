package dev.kiln.llama.weights;

/** The element types of safetensors files that Llama checkpoints use, with their names there. */
public enum TensorType {
  F32(4),
  F16(2),
  BF16(2);

  private final int bytes;

  TensorType(int bytes) {
    this.bytes = bytes;
  }

  /** Bytes per element. */
  public int bytes() {
    return bytes;
  }

  /**
   * The type a safetensors header names {@code dtype}.
   *
   * @throws IllegalArgumentException for a type Llama weights do not come in
   */
  static TensorType named(String dtype, String tensor) {
    for (TensorType type : values()) {
      if (type.name().equals(dtype)) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "tensor '"
            + tensor
            + "' has dtype "
            + dtype
            + "; Kiln reads F32, F16 and BF16 weights. Fix: convert the checkpoint to float16 or"
            + " bfloat16");
  }
}
