package dev.kiln.llama.model;

/** Hugging Face's names of a Llama checkpoint's tensors, written once for every reader. */
public final class TensorNames {
  /** The token embedding, {@code vocabulary x hidden}. */
  public static final String EMBEDDING = "model.embed_tokens.weight";

  /** The final RMSNorm's weight. */
  public static final String NORM = "model.norm.weight";

  /** The output projection, absent where the embedding is tied to it. */
  public static final String OUTPUT = "lm_head.weight";

  private TensorNames() {}

  /** The names of one decoder layer's tensors. */
  public record Layer(
      String attentionNorm,
      String query,
      String key,
      String value,
      String attentionOutput,
      String feedForwardNorm,
      String gate,
      String up,
      String down) {}

  /** The names of layer {@code layer}'s tensors. */
  public static Layer layer(int layer) {
    String p = "model.layers." + layer + ".";
    return new Layer(
        p + "input_layernorm.weight",
        p + "self_attn.q_proj.weight",
        p + "self_attn.k_proj.weight",
        p + "self_attn.v_proj.weight",
        p + "self_attn.o_proj.weight",
        p + "post_attention_layernorm.weight",
        p + "mlp.gate_proj.weight",
        p + "mlp.up_proj.weight",
        p + "mlp.down_proj.weight");
  }
}
