package dev.kiln.llama.weights;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Where one tensor of a checkpoint lies: its file, the byte range of its data there, its type and
 * shape (row-major, the last dimension fastest).
 *
 * @param name the tensor's name, such as {@code model.layers.0.self_attn.q_proj.weight}
 * @param type its element type
 * @param shape its dimensions
 * @param file the safetensors file that holds it
 * @param offset where its data starts in the file, in bytes
 */
public record TensorInfo(String name, TensorType type, long[] shape, Path file, long offset) {
  public TensorInfo {
    shape = shape.clone();
  }

  /** The number of elements: the product of the dimensions (1 for a scalar). */
  public long elements() {
    long count = 1;
    for (long dimension : shape) {
      count = Math.multiplyExact(count, dimension);
    }
    return count;
  }

  /** The bytes of its data. */
  public long bytes() {
    return elements() * type.bytes();
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TensorInfo that
        && name.equals(that.name)
        && type == that.type
        && Arrays.equals(shape, that.shape)
        && file.equals(that.file)
        && offset == that.offset;
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + Arrays.hashCode(shape);
  }

  @Override
  public String toString() {
    return name + " " + type + Arrays.toString(shape);
  }
}
