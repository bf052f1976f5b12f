package dev.kiln.llama.weights;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Safetensors files: one Hugging Face's {@code safetensors} wrote ({@code
 * src/test/python/make_safetensors_fixture.py}), files {@link SafeTensorsWriter} writes, shards
 * behind an index, and the files that are refused, each with what is wrong.
 */
class SafeTensorsTest {
  /** The fixture's values: (i - 7.25) / 4, exact in float16. */
  private static float[] values(int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = (i - 7.25f) / 4;
    }
    return values;
  }

  @Test
  void readsWhatHuggingFaceWrote() throws Exception {
    Path file = Path.of(SafeTensorsTest.class.getResource("tiny.safetensors").toURI());
    SafeTensors tensors = SafeTensors.open(file);
    assertEquals(
        List.of(
            "model.norm.weight", "model.embed_tokens.weight", "model.layers.0.mlp.up_proj.weight"),
        tensors.tensors().stream().map(TensorInfo::name).toList());
    TensorInfo embedding = tensors.tensor("model.embed_tokens.weight");
    assertEquals(TensorType.F16, embedding.type());
    assertArrayEquals(new long[] {6, 4}, embedding.shape());
    assertArrayEquals(values(24), SafeTensors.floats(embedding));
    assertArrayEquals(
        java.util.Arrays.copyOf(values(24), 5),
        SafeTensors.floats(tensors.tensor("model.norm.weight")));
    short[] bits = SafeTensors.shorts(tensors.tensor("model.layers.0.mlp.up_proj.weight"));
    for (int i = 0; i < bits.length; i++) {
      assertEquals(Float.floatToFloat16(values(24)[i]), bits[i]);
    }
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> tensors.tensor("model.layers.0.mlp.gate_proj.weight"));
    assertTrue(
        missing.getMessage().contains("no tensor 'model.layers.0.mlp.gate_proj.weight'")
            && missing.getMessage().contains("Fix:"),
        missing.getMessage());
  }

  @Test
  void readsWhatItWritesInEveryTypeAndShards(@TempDir Path folder) throws Exception {
    float[] floats = values(12);
    short[] halves = new short[12];
    short[] bfloats = new short[12];
    for (int i = 0; i < 12; i++) {
      halves[i] = Float.floatToFloat16(floats[i]);
      bfloats[i] = (short) (Float.floatToRawIntBits(floats[i]) >>> 16);
    }
    new SafeTensorsWriter()
        .add("a", new long[] {3, 4}, floats)
        .add("b", TensorType.F16, new long[] {12}, halves)
        .write(folder.resolve("model-00001-of-00002.safetensors"));
    new SafeTensorsWriter()
        .add("c", TensorType.BF16, new long[] {2, 2, 3}, bfloats)
        .write(folder.resolve("model-00002-of-00002.safetensors"));
    Files.writeString(
        folder.resolve(SafeTensors.INDEX),
        """
        {"metadata": {"total_size": 96}, "weight_map": {
          "a": "model-00001-of-00002.safetensors", "c": "model-00002-of-00002.safetensors",
          "b": "model-00001-of-00002.safetensors"}}""");
    SafeTensors tensors = SafeTensors.open(folder);
    assertEquals(List.of("a", "b", "c"), tensors.tensors().stream().map(TensorInfo::name).toList());
    assertArrayEquals(floats, SafeTensors.floats(tensors.tensor("a")));
    assertArrayEquals(floats, SafeTensors.floats(tensors.tensor("b")));
    assertArrayEquals(halves, SafeTensors.shorts(tensors.tensor("b")));
    assertArrayEquals(bfloats, SafeTensors.shorts(tensors.tensor("c")));
    assertEquals(folder.resolve("model-00002-of-00002.safetensors"), tensors.tensor("c").file());
    assertEquals(0, (tensors.tensor("a").offset() - 8) % 8, "the header is padded to 8 bytes");
    assertThrows(IllegalArgumentException.class, () -> SafeTensors.shorts(tensors.tensor("a")));
  }

  /** A file whose header is {@code header}, then {@code dataBytes} zero bytes. */
  private static Path file(Path folder, String header, int dataBytes) throws IOException {
    byte[] text = header.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ByteBuffer bytes =
        ByteBuffer.allocate(8 + text.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
    bytes.putLong(text.length).put(text);
    Path file = folder.resolve("bad.safetensors");
    Files.write(file, bytes.array());
    return file;
  }

  @Test
  void refusesFilesThatAreNotRightSayingWhy(@TempDir Path folder) throws Exception {
    String wrongType = "{\"x\": {\"dtype\": \"I8\", \"shape\": [2], \"data_offsets\": [0, 2]}}";
    IOException type =
        assertThrows(IOException.class, () -> SafeTensors.open(file(folder, wrongType, 2)));
    assertTrue(
        type.getMessage().contains("dtype I8") && type.getMessage().contains("Fix:"),
        type.getMessage());
    String wrongSize =
        "{\"x\": {\"dtype\": \"F16\", \"shape\": [2, 3], \"data_offsets\": [0, 10]}}";
    IOException size =
        assertThrows(IOException.class, () -> SafeTensors.open(file(folder, wrongSize, 12)));
    assertTrue(size.getMessage().contains("not its 12 bytes"), size.getMessage());
    String pastTheEnd = "{\"x\": {\"dtype\": \"F32\", \"shape\": [4], \"data_offsets\": [0, 16]}}";
    IOException past =
        assertThrows(IOException.class, () -> SafeTensors.open(file(folder, pastTheEnd, 8)));
    assertTrue(past.getMessage().contains("within the file's 8"), past.getMessage());
    Path text = folder.resolve("notes.safetensors");
    Files.writeString(text, "just some text, not a checkpoint");
    IOException notSafetensors = assertThrows(IOException.class, () -> SafeTensors.open(text));
    assertTrue(
        notSafetensors.getMessage().contains("not a safetensors file"),
        notSafetensors.getMessage());
    Path empty = Files.createDirectory(folder.resolve("empty"));
    IOException none = assertThrows(IOException.class, () -> SafeTensors.open(empty));
    assertTrue(none.getMessage().contains("holds no *.safetensors"), none.getMessage());
  }
}
