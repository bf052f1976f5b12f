package dev.kiln.llama.model;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.llama.weights.SafeTensorsWriter;
import dev.kiln.llama.weights.TensorType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The tiny Llama of {@code src/test/python/tiny_llama.py}, written as a checkpoint (config.json and
 * model.safetensors): each weight from the same integer hash, a multiple of 1/256 times a power of
 * two, or 1 plus a multiple of 1/128 (the norms), exact in float16 and bfloat16.
 */
public final class TinyCheckpoint {
  private TinyCheckpoint() {}

  /**
   * What the Python model computed: its config, prompt, greedy tokens and logits per step. Read as
   * a stream, so that the tests run from a jar on a JRE without the zip file system (the GPU
   * machine's, {@code bench/h200-check.sh}).
   */
  public static JsonObject expected() throws IOException {
    try (InputStream in = TinyCheckpoint.class.getResourceAsStream("tiny-expected.json")) {
      if (in == null) {
        throw new IOException("tiny-expected.json is not on the class path next to TinyCheckpoint");
      }
      return JsonParser.parseString(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .getAsJsonObject();
    }
  }

  /** Writes the checkpoint into {@code folder}, its weights of {@code type}; returns its config. */
  public static LlamaConfig write(Path folder, TensorType type) throws IOException {
    JsonObject config = expected().getAsJsonObject("config");
    Files.writeString(folder.resolve("config.json"), config.toString());
    LlamaConfig shape = LlamaConfig.read(folder);
    int h = shape.hidden();
    int f = shape.intermediate();
    int q = shape.heads() * shape.headDim();
    int kv = shape.kvHeads() * shape.headDim();
    SafeTensorsWriter writer = new SafeTensorsWriter();
    add(writer, type, "model.embed_tokens.weight", 4, 0, shape.vocabulary(), h);
    for (int layer = 0; layer < shape.layers(); layer++) {
      String p = "model.layers." + layer + ".";
      add(writer, type, p + "input_layernorm.weight", 2, 1, h);
      add(writer, type, p + "self_attn.q_proj.weight", 1, 0, q, h);
      add(writer, type, p + "self_attn.k_proj.weight", 1, 0, kv, h);
      add(writer, type, p + "self_attn.v_proj.weight", 1, 0, kv, h);
      add(writer, type, p + "self_attn.o_proj.weight", 1, 0, h, q);
      add(writer, type, p + "post_attention_layernorm.weight", 2, 1, h);
      add(writer, type, p + "mlp.gate_proj.weight", 1, 0, f, h);
      add(writer, type, p + "mlp.up_proj.weight", 1, 0, f, h);
      add(writer, type, p + "mlp.down_proj.weight", 1, 0, h, f);
    }
    add(writer, type, "model.norm.weight", 2, 1, h);
    add(writer, type, "lm_head.weight", 1, 0, shape.vocabulary(), h);
    writer.write(folder.resolve("model.safetensors"));
    return shape;
  }

  /** Adds tensor {@code name}: {@code offset + hash weights times scale}. */
  private static void add(
      SafeTensorsWriter writer,
      TensorType type,
      String name,
      double scale,
      double offset,
      int... shape) {
    long seed = 0;
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      seed = (seed * 31 + (b & 0xff)) & 0xffffffffL;
    }
    int n = 1;
    long[] dimensions = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      n *= shape[d];
      dimensions[d] = shape[d];
    }
    short[] bits = new short[n];
    for (int i = 0; i < n; i++) {
      long mixed = (seed + i * 0x9E3779B1L) & 0xffffffffL;
      mixed = ((mixed ^ (mixed >>> 15)) * 0x2C1B3C6DL) & 0xffffffffL;
      float value = (float) (offset + ((mixed >>> 26) - 32) / 256.0 * scale);
      bits[i] =
          type == TensorType.F16
              ? Float.floatToFloat16(value)
              : (short) (Float.floatToRawIntBits(value) >>> 16);
    }
    writer.add(name, type, dimensions, bits);
  }
}
