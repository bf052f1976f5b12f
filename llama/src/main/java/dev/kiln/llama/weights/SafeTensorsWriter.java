package dev.kiln.llama.weights;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes tensors to one safetensors file, as {@link SafeTensors} and Hugging Face's {@code
 * safetensors} read it: for the random checkpoints of benchmarks (which PyTorch then loads) and the
 * tiny ones of tests. The header is padded with spaces to a multiple of 8 bytes.
 */
public final class SafeTensorsWriter {
  private record Entry(String name, TensorType type, long[] shape, ByteBuffer data) {}

  private final List<Entry> entries = new ArrayList<>();

  /**
   * Adds a 16-bit tensor (float16 or bfloat16 bits, row-major).
   *
   * @return this writer
   */
  public SafeTensorsWriter add(String name, TensorType type, long[] shape, short[] values) {
    if (type.bytes() != 2) {
      throw new IllegalArgumentException(type + " is not a 16-bit type");
    }
    ByteBuffer data = ByteBuffer.allocate(2 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    data.asShortBuffer().put(values);
    return add(name, type, shape, data, values.length);
  }

  /**
   * Adds a float tensor (row-major).
   *
   * @return this writer
   */
  public SafeTensorsWriter add(String name, long[] shape, float[] values) {
    ByteBuffer data = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    data.asFloatBuffer().put(values);
    return add(name, TensorType.F32, shape, data, values.length);
  }

  private SafeTensorsWriter add(
      String name, TensorType type, long[] shape, ByteBuffer data, int length) {
    long elements = 1;
    for (long dimension : shape) {
      elements *= dimension;
    }
    if (elements != length) {
      throw new IllegalArgumentException(
          "tensor '"
              + name
              + "' of shape "
              + java.util.Arrays.toString(shape)
              + " has "
              + length
              + " values");
    }
    entries.add(new Entry(name, type, shape.clone(), data));
    return this;
  }

  /**
   * Writes the tensors added, in that order, to {@code file} (replacing it).
   *
   * @throws IOException where the file cannot be written
   */
  public void write(Path file) throws IOException {
    JsonObject header = new JsonObject();
    long at = 0;
    for (Entry entry : entries) {
      JsonObject tensor = new JsonObject();
      tensor.addProperty("dtype", entry.type().name());
      JsonArray shape = new JsonArray();
      for (long dimension : entry.shape()) {
        shape.add(dimension);
      }
      tensor.add("shape", shape);
      JsonArray offsets = new JsonArray();
      offsets.add(at);
      at += entry.data().capacity();
      offsets.add(at);
      tensor.add("data_offsets", offsets);
      header.add(entry.name(), tensor);
    }
    byte[] text = header.toString().getBytes(StandardCharsets.UTF_8);
    int padded = (text.length + 7) / 8 * 8;
    ByteBuffer start = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
    start.putLong(padded).put(text);
    while (start.hasRemaining()) {
      start.put((byte) ' ');
    }
    try (FileChannel channel =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      writeFully(channel, start.flip());
      for (Entry entry : entries) {
        writeFully(channel, entry.data().duplicate().clear());
      }
    }
  }

  private static void writeFully(FileChannel channel, ByteBuffer data) throws IOException {
    while (data.hasRemaining()) {
      channel.write(data);
    }
  }
}
