package dev.kiln.llama.weights;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The tensors of a Hugging Face checkpoint in safetensors files: one file, or the shards a {@code
 * model.safetensors.index.json} maps names to. Only the headers are read on opening; a tensor's
 * data is mapped from its file when asked for. Each file is an 8-byte little-endian header length,
 * a JSON header naming each tensor's {@code dtype}, {@code shape} and {@code data_offsets} (from
 * the end of the header), then the data, little-endian.
 */
public final class SafeTensors {
  /** The index of sharded checkpoints, beside the shards. */
  public static final String INDEX = "model.safetensors.index.json";

  /** The largest header read: a checkpoint's headers are kilobytes. */
  private static final long MAX_HEADER_BYTES = 100L << 20;

  private final Map<String, TensorInfo> tensors;

  private SafeTensors(Map<String, TensorInfo> tensors) {
    this.tensors = Collections.unmodifiableMap(tensors);
  }

  /**
   * The tensors of {@code path}: a safetensors file, an index file, or a folder holding either (the
   * index where there is one, else every {@code *.safetensors} file in it).
   *
   * @param path the checkpoint
   * @return its tensors, by name
   * @throws IOException where a file cannot be read, or is not a safetensors file
   */
  public static SafeTensors open(Path path) throws IOException {
    if (Files.isDirectory(path)) {
      Path index = path.resolve(INDEX);
      if (Files.exists(index)) {
        return open(index);
      }
      List<Path> files;
      try (Stream<Path> listing = Files.list(path)) {
        files = listing.filter(file -> file.toString().endsWith(".safetensors")).sorted().toList();
      }
      if (files.isEmpty()) {
        throw new IOException(
            path
                + " holds no *.safetensors file and no "
                + INDEX
                + ". Fix: name the folder of a"
                + " downloaded checkpoint, which has model.safetensors or its shards");
      }
      return read(files);
    }
    if (path.getFileName().toString().endsWith(".json")) {
      return read(shards(path));
    }
    return read(List.of(path));
  }

  /** The files an index maps the tensors to, in the order they first appear. */
  private static List<Path> shards(Path index) throws IOException {
    JsonObject weightMap = json(Files.readString(index), index).getAsJsonObject("weight_map");
    if (weightMap == null) {
      throw new IOException(index + " has no \"weight_map\"; it is not a safetensors index");
    }
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, JsonElement> entry : weightMap.entrySet()) {
      Path file = index.resolveSibling(entry.getValue().getAsString());
      if (!files.contains(file)) {
        files.add(file);
      }
    }
    return files;
  }

  private static SafeTensors read(List<Path> files) throws IOException {
    Map<String, TensorInfo> tensors = new LinkedHashMap<>();
    for (Path file : files) {
      for (TensorInfo tensor : header(file)) {
        TensorInfo earlier = tensors.put(tensor.name(), tensor);
        if (earlier != null) {
          throw new IOException(
              "tensor '" + tensor.name() + "' is in both " + earlier.file() + " and " + file);
        }
      }
    }
    return new SafeTensors(tensors);
  }

  /** The tensors {@code file}'s header describes, in its order, each checked against the file. */
  private static List<TensorInfo> header(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      ByteBuffer length = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      readFully(channel, length, 0, file);
      long headerBytes = length.getLong(0);
      if (headerBytes < 2 || headerBytes > MAX_HEADER_BYTES || 8 + headerBytes > size) {
        throw new IOException(
            file
                + " is not a safetensors file: its first 8 bytes give a header of "
                + headerBytes
                + " bytes in a file of "
                + size);
      }
      ByteBuffer text = ByteBuffer.allocate((int) headerBytes);
      readFully(channel, text, 8, file);
      JsonObject header = json(new String(text.array(), StandardCharsets.UTF_8), file);
      long dataStart = 8 + headerBytes;
      List<TensorInfo> tensors = new ArrayList<>();
      for (Map.Entry<String, JsonElement> entry : header.entrySet()) {
        if (!entry.getKey().equals("__metadata__")) {
          tensors.add(
              tensor(entry.getKey(), entry.getValue().getAsJsonObject(), file, dataStart, size));
        }
      }
      return tensors;
    } catch (IllegalStateException | ClassCastException | NullPointerException e) {
      throw new IOException(file + " has a malformed safetensors header: " + e.getMessage(), e);
    } catch (IllegalArgumentException e) { // a type Kiln does not read
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  private static TensorInfo tensor(
      String name, JsonObject entry, Path file, long dataStart, long size) throws IOException {
    TensorType type = TensorType.named(entry.get("dtype").getAsString(), name);
    var dimensions = entry.getAsJsonArray("shape");
    long[] shape = new long[dimensions.size()];
    for (int d = 0; d < shape.length; d++) {
      shape[d] = dimensions.get(d).getAsLong();
    }
    var offsets = entry.getAsJsonArray("data_offsets");
    long begin = offsets.get(0).getAsLong();
    long end = offsets.get(1).getAsLong();
    TensorInfo tensor = new TensorInfo(name, type, shape, file, dataStart + begin);
    if (begin < 0 || end - begin != tensor.bytes() || dataStart + end > size) {
      throw new IOException(
          file
              + ": tensor '"
              + name
              + "' ("
              + tensor
              + ") is said to lie at bytes "
              + begin
              + " to "
              + end
              + " of the data, which is not its "
              + tensor.bytes()
              + " bytes within the file's "
              + (size - dataStart));
    }
    return tensor;
  }

  private static void readFully(FileChannel channel, ByteBuffer into, long at, Path file)
      throws IOException {
    while (into.hasRemaining()) {
      if (channel.read(into, at + into.position()) < 0) {
        throw new IOException(file + " ended inside its safetensors header");
      }
    }
  }

  private static JsonObject json(String text, Path file) throws IOException {
    try {
      return JsonParser.parseString(text).getAsJsonObject();
    } catch (JsonParseException | IllegalStateException e) {
      throw new IOException(file + " is not valid JSON: " + e.getMessage(), e);
    }
  }

  /** The tensors, in the order of the files and their headers. */
  public Collection<TensorInfo> tensors() {
    return tensors.values();
  }

  /**
   * The tensor named {@code name}.
   *
   * @throws IllegalArgumentException where there is none, naming the names there are like it
   */
  public TensorInfo tensor(String name) {
    TensorInfo tensor = tensors.get(name);
    if (tensor == null) {
      String tail = name.substring(name.lastIndexOf('.', name.length() - 8) + 1);
      TreeSet<String> like = new TreeSet<>();
      for (String known : tensors.keySet()) {
        if (known.endsWith(tail) && like.size() < 5) {
          like.add(known);
        }
      }
      throw new IllegalArgumentException(
          "the checkpoint has no tensor '"
              + name
              + "'"
              + (like.isEmpty() ? "" : "; it has " + like)
              + ". Fix: check that it is a Llama checkpoint of the shape its config.json gives");
    }
    return tensor;
  }

  /** Whether there is a tensor named {@code name}. */
  public boolean has(String name) {
    return tensors.containsKey(name);
  }

  /**
   * The data of {@code tensor}, mapped from its file, little-endian, read-only.
   *
   * @throws IOException where the file cannot be mapped
   */
  public static ByteBuffer data(TensorInfo tensor) throws IOException {
    if (tensor.bytes() > Integer.MAX_VALUE) {
      throw new IOException(
          "tensor " + tensor + " has " + tensor.bytes() + " bytes; one tensor is read up to 2 GiB");
    }
    try (FileChannel channel = FileChannel.open(tensor.file(), StandardOpenOption.READ)) {
      return channel
          .map(FileChannel.MapMode.READ_ONLY, tensor.offset(), tensor.bytes())
          .order(ByteOrder.LITTLE_ENDIAN);
    }
  }

  /**
   * The elements of a 16-bit {@code tensor} (float16 or bfloat16 bits), in row-major order.
   *
   * @throws IOException where the file cannot be read
   * @throws IllegalArgumentException where the tensor is not 16-bit
   */
  public static short[] shorts(TensorInfo tensor) throws IOException {
    if (tensor.type().bytes() != 2) {
      throw new IllegalArgumentException(tensor + " is not of 16-bit elements");
    }
    short[] values = new short[Math.toIntExact(tensor.elements())];
    data(tensor).asShortBuffer().get(values);
    return values;
  }

  /**
   * The elements of {@code tensor} as floats, each converted exactly (float16 and bfloat16 values
   * are all floats).
   *
   * @throws IOException where the file cannot be read
   */
  public static float[] floats(TensorInfo tensor) throws IOException {
    float[] values = new float[Math.toIntExact(tensor.elements())];
    ByteBuffer data = data(tensor);
    switch (tensor.type()) {
      case F32 -> data.asFloatBuffer().get(values);
      case F16 -> {
        for (int i = 0; i < values.length; i++) {
          values[i] = Float.float16ToFloat(data.getShort(2 * i));
        }
      }
      case BF16 -> {
        for (int i = 0; i < values.length; i++) {
          values[i] = Float.intBitsToFloat(data.getShort(2 * i) << 16);
        }
      }
    }
    return values;
  }
}
