package dev.kiln.llama.model;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shape of a Llama-architecture model, as its {@code config.json} gives it: Llama 3.x (grouped
 * query attention, RoPE with Llama 3's frequency scaling, SwiGLU, RMSNorm, tied or untied
 * embeddings).
 *
 * @param hidden the width of the residual stream ({@code hidden_size})
 * @param intermediate the width of the feed-forward layer ({@code intermediate_size})
 * @param layers the decoder layers ({@code num_hidden_layers})
 * @param heads the query heads ({@code num_attention_heads})
 * @param kvHeads the key and value heads ({@code num_key_value_heads}), dividing {@code heads}
 * @param headDim the width of a head ({@code head_dim}, else {@code hidden / heads})
 * @param vocabulary the tokens ({@code vocab_size})
 * @param maxPositions the longest sequence ({@code max_position_embeddings})
 * @param normEpsilon RMSNorm's epsilon ({@code rms_norm_eps})
 * @param ropeTheta RoPE's base ({@code rope_theta})
 * @param ropeScaling Llama 3's scaling of RoPE's frequencies, or null for none
 * @param tiedEmbeddings whether the output projection is the embedding ({@code
 *     tie_word_embeddings})
 */
public record LlamaConfig(
    int hidden,
    int intermediate,
    int layers,
    int heads,
    int kvHeads,
    int headDim,
    int vocabulary,
    int maxPositions,
    float normEpsilon,
    double ropeTheta,
    RopeScaling ropeScaling,
    boolean tiedEmbeddings) {

  /**
   * Llama 3's {@code rope_scaling} ({@code rope_type} "llama3"): long wavelengths divided by {@code
   * factor}, short ones kept, those between blended.
   */
  public record RopeScaling(
      double factor,
      double lowFrequencyFactor,
      double highFrequencyFactor,
      int originalPositions) {}

  public LlamaConfig {
    if (hidden <= 0 || intermediate <= 0 || layers <= 0 || heads <= 0 || kvHeads <= 0) {
      throw new IllegalArgumentException(
          "a Llama model's sizes are positive: "
              + describe(hidden, intermediate, layers, heads, kvHeads));
    }
    if (heads % kvHeads != 0) {
      throw new IllegalArgumentException(
          heads + " query heads do not share " + kvHeads + " key-value heads evenly");
    }
    if (headDim % 2 != 0) {
      throw new IllegalArgumentException("RoPE rotates pairs: a head of " + headDim + " is odd");
    }
  }

  private static String describe(int hidden, int intermediate, int layers, int heads, int kv) {
    return "hidden "
        + hidden
        + ", intermediate "
        + intermediate
        + ", layers "
        + layers
        + ", heads "
        + heads
        + ", key-value heads "
        + kv;
  }

  /** Llama 3.2 1B's shape (tied embeddings). */
  public static final LlamaConfig LLAMA_3_2_1B =
      new LlamaConfig(
          2048,
          8192,
          16,
          32,
          8,
          64,
          128256,
          131072,
          1e-5f,
          500000,
          new RopeScaling(32, 1, 4, 8192),
          true);

  /** Llama 3.2 3B's shape (tied embeddings). */
  public static final LlamaConfig LLAMA_3_2_3B =
      new LlamaConfig(
          3072,
          8192,
          28,
          24,
          8,
          128,
          128256,
          131072,
          1e-5f,
          500000,
          new RopeScaling(32, 1, 4, 8192),
          true);

  /** Llama 3.1 8B's shape. */
  public static final LlamaConfig LLAMA_3_1_8B =
      new LlamaConfig(
          4096,
          14336,
          32,
          32,
          8,
          128,
          128256,
          131072,
          1e-5f,
          500000,
          new RopeScaling(8, 1, 4, 8192),
          false);

  /**
   * The preset named {@code size}: 1B, 3B or 8B.
   *
   * @throws IllegalArgumentException for another name
   */
  public static LlamaConfig preset(String size) {
    return switch (size.toUpperCase(java.util.Locale.ROOT)) {
      case "1B" -> LLAMA_3_2_1B;
      case "3B" -> LLAMA_3_2_3B;
      case "8B" -> LLAMA_3_1_8B;
      default ->
          throw new IllegalArgumentException("no preset '" + size + "'. Fix: name 1B, 3B or 8B");
    };
  }

  /**
   * Reads {@code config.json} (or the {@code config.json} in a folder).
   *
   * @throws IOException where it cannot be read, is not JSON, or lacks a size
   */
  public static LlamaConfig read(Path path) throws IOException {
    Path file = Files.isDirectory(path) ? path.resolve("config.json") : path;
    JsonObject json;
    try {
      json = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
    } catch (JsonParseException | IllegalStateException e) {
      throw new IOException(file + " is not valid JSON: " + e.getMessage(), e);
    }
    try {
      return parse(json);
    } catch (IllegalArgumentException | NullPointerException | ClassCastException e) {
      throw new IOException(file + " does not describe a Llama model: " + e.getMessage(), e);
    }
  }

  /** The config {@code json} describes. */
  static LlamaConfig parse(JsonObject json) {
    String type =
        optional(json, "model_type") == null ? "llama" : json.get("model_type").getAsString();
    if (!type.equals("llama")) {
      throw new IllegalArgumentException("model_type is \"" + type + "\", not \"llama\"");
    }
    int hidden = required(json, "hidden_size");
    int heads = required(json, "num_attention_heads");
    JsonElement kv = optional(json, "num_key_value_heads");
    JsonElement headDim = optional(json, "head_dim");
    JsonElement epsilon = optional(json, "rms_norm_eps");
    JsonElement theta = optional(json, "rope_theta");
    JsonElement tied = optional(json, "tie_word_embeddings");
    JsonElement positions = optional(json, "max_position_embeddings");
    return new LlamaConfig(
        hidden,
        required(json, "intermediate_size"),
        required(json, "num_hidden_layers"),
        heads,
        kv == null ? heads : kv.getAsInt(),
        headDim == null ? hidden / heads : headDim.getAsInt(),
        required(json, "vocab_size"),
        positions == null ? 2048 : positions.getAsInt(),
        epsilon == null ? 1e-5f : epsilon.getAsFloat(),
        theta == null ? 10000 : theta.getAsDouble(),
        scaling(optional(json, "rope_scaling")),
        tied != null && tied.getAsBoolean());
  }

  private static RopeScaling scaling(JsonElement element) {
    if (element == null) {
      return null;
    }
    JsonObject scaling = element.getAsJsonObject();
    JsonElement kind = optional(scaling, "rope_type");
    if (kind == null) {
      kind = optional(scaling, "type");
    }
    if (kind == null || !kind.getAsString().equals("llama3")) {
      throw new IllegalArgumentException(
          "rope_scaling " + scaling + " is not Llama 3's (\"rope_type\": \"llama3\")");
    }
    return new RopeScaling(
        scaling.get("factor").getAsDouble(),
        scaling.get("low_freq_factor").getAsDouble(),
        scaling.get("high_freq_factor").getAsDouble(),
        scaling.get("original_max_position_embeddings").getAsInt());
  }

  private static int required(JsonObject json, String key) {
    JsonElement value = optional(json, key);
    if (value == null) {
      throw new IllegalArgumentException("\"" + key + "\" is missing");
    }
    return value.getAsInt();
  }

  private static JsonElement optional(JsonObject json, String key) {
    JsonElement value = json.get(key);
    return value == null || value.isJsonNull() ? null : value;
  }

  /**
   * RoPE's inverse frequencies, {@code headDim / 2} of them: {@code θ^(-2i/d)}, scaled as Llama 3
   * scales them (Hugging Face's {@code _compute_llama3_parameters}), in double precision.
   */
  public double[] inverseFrequencies() {
    double[] frequencies = new double[headDim / 2];
    for (int i = 0; i < frequencies.length; i++) {
      double frequency = 1 / Math.pow(ropeTheta, 2.0 * i / headDim);
      if (ropeScaling != null) {
        double wavelength = 2 * Math.PI / frequency;
        double lowWavelength = ropeScaling.originalPositions() / ropeScaling.lowFrequencyFactor();
        double highWavelength = ropeScaling.originalPositions() / ropeScaling.highFrequencyFactor();
        if (wavelength > lowWavelength) {
          frequency /= ropeScaling.factor();
        } else if (wavelength >= highWavelength) {
          double smooth =
              (ropeScaling.originalPositions() / wavelength - ropeScaling.lowFrequencyFactor())
                  / (ropeScaling.highFrequencyFactor() - ropeScaling.lowFrequencyFactor());
          frequency = (1 - smooth) * frequency / ropeScaling.factor() + smooth * frequency;
        }
      }
      frequencies[i] = frequency;
    }
    return frequencies;
  }

  /** The weights' bytes in a 16-bit type: embedding, layers, final norm, output unless tied. */
  public long weightBytes() {
    long attention =
        (long) hidden * headDim * (heads + 2L * kvHeads) + (long) heads * headDim * hidden;
    long feedForward = 3L * hidden * intermediate;
    long layer = attention + feedForward + 2L * hidden;
    long embedding = (long) vocabulary * hidden;
    return 2 * (embedding * (tiedEmbeddings ? 1 : 2) + layers * layer + hidden);
  }
}
