package dev.kiln.llama.model;

/**
 * A Llama model's forward pass in plain Java floats, one token at a time with a key-value cache:
 * the specification the GPU model is tested against, as Hugging Face's {@code LlamaForCausalLM}
 * computes it. RMSNorm {@code x / sqrt(mean(x²) + ε) · w}; RoPE rotating the halves of each head
 * ({@code rotate_half}) by Llama 3's scaled frequencies; grouped-query attention over the cached
 * positions, softmax in float; SwiGLU {@code down(silu(gate·h) ⊙ up·h)}. Sums run in index order,
 * products and angles in double where Java's {@code Math} gives them.
 */
public final class ReferenceModel {
  private final LlamaWeights weights;
  private final LlamaConfig config;
  private final double[] frequencies;

  /** The cache: per layer, position and key-value head, {@code headDim} keys (values alike). */
  private final float[][] keys;

  private final float[][] values;
  private int position;

  /**
   * A model at position 0 with a cache of {@code positions} positions.
   *
   * @param weights the weights
   * @param positions the longest sequence it will run
   */
  public ReferenceModel(LlamaWeights weights, int positions) {
    this.weights = weights;
    this.config = weights.config();
    this.frequencies = config.inverseFrequencies();
    int cached = positions * config.kvHeads() * config.headDim();
    keys = new float[config.layers()][cached];
    values = new float[config.layers()][cached];
  }

  /** The next position: the number of tokens run so far. */
  public int position() {
    return position;
  }

  /**
   * Runs {@code token} at the next position and returns the logits of the token after it.
   *
   * @throws IllegalStateException where the cache is full
   */
  public float[] step(int token) {
    int hidden = config.hidden();
    int headDim = config.headDim();
    int kvWidth = config.kvHeads() * headDim;
    if ((position + 1) * kvWidth > keys[0].length) {
      throw new IllegalStateException("the cache holds " + keys[0].length / kvWidth + " positions");
    }
    float[] x = new float[hidden];
    System.arraycopy(weights.embedding(), token * hidden, x, 0, hidden);
    for (int l = 0; l < config.layers(); l++) {
      LlamaWeights.Layer layer = weights.layers()[l];
      float[] h = rmsNorm(x, layer.attentionNorm());
      float[] q = multiply(layer.query(), h);
      float[] k = multiply(layer.key(), h);
      float[] v = multiply(layer.value(), h);
      rotate(q, config.heads());
      rotate(k, config.kvHeads());
      System.arraycopy(k, 0, keys[l], position * kvWidth, kvWidth);
      System.arraycopy(v, 0, values[l], position * kvWidth, kvWidth);
      add(x, multiply(layer.attentionOutput(), attend(q, l)));
      h = rmsNorm(x, layer.feedForwardNorm());
      float[] gate = multiply(layer.gate(), h);
      float[] up = multiply(layer.up(), h);
      for (int i = 0; i < gate.length; i++) {
        gate[i] = gate[i] / (1f + (float) Math.exp(-gate[i])) * up[i];
      }
      add(x, multiply(layer.down(), gate));
    }
    position++;
    return multiply(weights.output(), rmsNorm(x, weights.norm()));
  }

  /** Each query head's softmax-weighted sum of the cached values of its key-value head. */
  private float[] attend(float[] q, int layer) {
    int headDim = config.headDim();
    int kvWidth = config.kvHeads() * headDim;
    int group = config.heads() / config.kvHeads();
    float scale = (float) (1 / Math.sqrt(headDim));
    float[] out = new float[q.length];
    float[] scores = new float[position + 1];
    for (int head = 0; head < config.heads(); head++) {
      int kvOffset = head / group * headDim;
      float max = Float.NEGATIVE_INFINITY;
      for (int t = 0; t <= position; t++) {
        float dot = 0;
        for (int d = 0; d < headDim; d++) {
          dot += q[head * headDim + d] * keys[layer][t * kvWidth + kvOffset + d];
        }
        scores[t] = dot * scale;
        max = Math.max(max, scores[t]);
      }
      float sum = 0;
      for (int t = 0; t <= position; t++) {
        scores[t] = (float) Math.exp(scores[t] - max);
        sum += scores[t];
      }
      for (int t = 0; t <= position; t++) {
        float weight = scores[t] / sum;
        for (int d = 0; d < headDim; d++) {
          out[head * headDim + d] += weight * values[layer][t * kvWidth + kvOffset + d];
        }
      }
    }
    return out;
  }

  /** Rotates each of {@code heads} heads of {@code x} by the angles of this position. */
  private void rotate(float[] x, int heads) {
    int headDim = config.headDim();
    int half = headDim / 2;
    for (int i = 0; i < half; i++) {
      double angle = position * frequencies[i];
      float cos = (float) Math.cos(angle);
      float sin = (float) Math.sin(angle);
      for (int head = 0; head < heads; head++) {
        int at = head * headDim + i;
        float x1 = x[at];
        float x2 = x[at + half];
        x[at] = x1 * cos - x2 * sin;
        x[at + half] = x2 * cos + x1 * sin;
      }
    }
  }

  private float[] rmsNorm(float[] x, float[] weight) {
    float squares = 0;
    for (float v : x) {
      squares += v * v;
    }
    float scale = (float) (1 / Math.sqrt(squares / x.length + config.normEpsilon()));
    float[] out = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = x[i] * scale * weight[i];
    }
    return out;
  }

  /** {@code matrix · vector}, the matrix {@code rows x vector.length} row-major. */
  private static float[] multiply(float[] matrix, float[] vector) {
    int columns = vector.length;
    float[] out = new float[matrix.length / columns];
    for (int r = 0; r < out.length; r++) {
      float sum = 0;
      for (int c = 0; c < columns; c++) {
        sum += matrix[r * columns + c] * vector[c];
      }
      out[r] = sum;
    }
    return out;
  }

  private static void add(float[] x, float[] y) {
    for (int i = 0; i < x.length; i++) {
      x[i] += y[i];
    }
  }
}
