package dev.kiln.llama.model;

import dev.kiln.llama.weights.SafeTensors;
import dev.kiln.llama.weights.TensorInfo;
import java.io.IOException;
import java.util.Arrays;

/**
 * A Llama model's weights as floats in Java arrays, row-major as Hugging Face stores them (a
 * projection {@code out x in}), each checked against the config's shape: for the reference model
 * and small models; the GPU model keeps 16-bit weights on the device instead.
 *
 * @param config the shape
 * @param embedding {@code vocabulary x hidden}
 * @param layers the decoder layers
 * @param norm the final RMSNorm's weight
 * @param output {@code vocabulary x hidden}: the embedding itself where tied
 */
public record LlamaWeights(
    LlamaConfig config, float[] embedding, Layer[] layers, float[] norm, float[] output) {

  /** One decoder layer's weights. */
  public record Layer(
      float[] attentionNorm,
      float[] query,
      float[] key,
      float[] value,
      float[] attentionOutput,
      float[] feedForwardNorm,
      float[] gate,
      float[] up,
      float[] down) {}

  /**
   * Reads the weights {@code config} names from {@code tensors} (Hugging Face's names: {@code
   * model.layers.N.self_attn.q_proj.weight} and so on).
   *
   * @throws IOException where a tensor cannot be read
   * @throws IllegalArgumentException where one is missing or of another shape
   */
  public static LlamaWeights read(SafeTensors tensors, LlamaConfig config) throws IOException {
    int hidden = config.hidden();
    int queries = config.heads() * config.headDim();
    int keys = config.kvHeads() * config.headDim();
    Layer[] layers = new Layer[config.layers()];
    for (int l = 0; l < layers.length; l++) {
      TensorNames.Layer names = TensorNames.layer(l);
      layers[l] =
          new Layer(
              read(tensors, names.attentionNorm(), hidden),
              read(tensors, names.query(), queries, hidden),
              read(tensors, names.key(), keys, hidden),
              read(tensors, names.value(), keys, hidden),
              read(tensors, names.attentionOutput(), hidden, queries),
              read(tensors, names.feedForwardNorm(), hidden),
              read(tensors, names.gate(), config.intermediate(), hidden),
              read(tensors, names.up(), config.intermediate(), hidden),
              read(tensors, names.down(), hidden, config.intermediate()));
    }
    float[] embedding = read(tensors, TensorNames.EMBEDDING, config.vocabulary(), hidden);
    float[] output =
        config.tiedEmbeddings()
            ? embedding
            : read(tensors, TensorNames.OUTPUT, config.vocabulary(), hidden);
    return new LlamaWeights(
        config, embedding, layers, read(tensors, TensorNames.NORM, hidden), output);
  }

  private static float[] read(SafeTensors tensors, String name, long... shape) throws IOException {
    TensorInfo tensor = tensors.tensor(name);
    if (!Arrays.equals(tensor.shape(), shape)) {
      throw new IllegalArgumentException(
          "tensor "
              + tensor
              + " is not of shape "
              + Arrays.toString(shape)
              + ", which config.json gives. Fix: use the config.json of this checkpoint");
    }
    return SafeTensors.floats(tensor);
  }
}
