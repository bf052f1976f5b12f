package dev.kiln.llama.gpu;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceArray;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;
import dev.kiln.Recording;
import dev.kiln.ShortArray;
import dev.kiln.library.Gemv;
import dev.kiln.library.Rows;
import dev.kiln.llama.model.LlamaConfig;
import dev.kiln.llama.model.TensorNames;
import dev.kiln.llama.weights.SafeTensors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Llama model on a Kiln device: its 16-bit weights, a key-value cache of {@code positions}
 * positions, and one decoding step recorded once ({@link Recording}) that reads the position and
 * the token from device arrays and leaves the next token there, so that a whole generation is runs
 * of the recording with no transfer between them. A step: the embedding; per layer one GEMV for the
 * query, key and value projections (their rows stored together), attention split over the cache
 * with RoPE and the cache's write, its combination, the output projection added to the residual,
 * one GEMV for the gate and up projections with SwiGLU's product, the down projection added to the
 * residual; the output projection, the argmax (greedy; a part of the logits per workgroup, then the
 * parts' combination), the advance. RMSNorm takes no launch: the launch that leaves the residual
 * (the embedding, a projection added to it) leaves the norm's pieces too, and the product after it
 * scales its sums ({@link Gemv#accumulateForNorm}, {@link Gemv#normedProduct}, {@link
 * Gemv#gatedNormedProduct}): 6 launches a layer and 5 more.
 */
public final class DeviceModel implements AutoCloseable {
  private final Device device;
  private final LlamaConfig config;
  private final int positions;
  private final boolean bfloat;
  private final List<DeviceArray<?, ?>> arrays = new ArrayList<>();

  private final ShortArray embedding;
  private final ShortArray output;
  private final FloatArray norm;
  private final Layer[] layers;
  private final FloatArray cos;
  private final FloatArray sin;

  private final IntArray tokens;
  private final IntArray position;
  private final IntArray next;
  private final FloatArray x;
  private final FloatArray normed;
  private final FloatArray squares;
  private final FloatArray qkv;
  private final int spans;
  private final AttentionTiles tiles;
  private final FloatArray spanValues;
  private final FloatArray spanStats;
  private final FloatArray attention;
  private final FloatArray act;
  private final FloatArray logits;
  private final Rows.Scratch argmaxParts;

  /**
   * Uploads {@code tensors}' weights (all float16 or all bfloat16) to {@code device}, with a cache
   * of {@code positions} positions.
   *
   * @throws IOException where a tensor cannot be read
   * @throws IllegalArgumentException where a tensor is missing, of another shape, or of another
   *     type than the embedding's
   */
  public DeviceModel(Device device, LlamaConfig config, SafeTensors tensors, int positions)
      throws IOException {
    this(device, config, DeviceWeights.of(tensors), positions);
  }

  /**
   * A model of {@code config}'s shape with {@code weights} on {@code device}, and a cache of {@code
   * positions} positions.
   *
   * @throws IOException where a tensor cannot be read
   * @throws IllegalArgumentException where a tensor is missing or of another shape or type
   */
  public DeviceModel(Device device, LlamaConfig config, DeviceWeights weights, int positions)
      throws IOException {
    this.device = device;
    this.config = config;
    this.positions = positions;
    if (config.headDim() > LlamaKernels.MAX_HEAD
        || config.headDim() % 4 != 0
        || LlamaKernels.WORKGROUP % config.headDim() != 0
        || config.heads() / config.kvHeads() > LlamaKernels.MAX_GROUP) {
      throw new IllegalArgumentException(
          "heads of "
              + config.headDim()
              + " in groups of "
              + config.heads() / config.kvHeads()
              + " per key-value head; the attention takes heads that divide "
              + LlamaKernels.WORKGROUP
              + ", at least 4, at most "
              + LlamaKernels.MAX_HEAD
              + ", in groups of at most "
              + LlamaKernels.MAX_GROUP
              + ". Fix: run this model with ReferenceModel (plain Java, any heads), or use a"
              + " checkpoint with Llama 3's heads (64 or 128 wide, groups of at most 8)");
    }
    bfloat = weights.bfloat();
    int hidden = config.hidden();
    int queries = config.heads() * config.headDim();
    int keyWidth = config.kvHeads() * config.headDim();
    int inner = config.intermediate();
    embedding = keep(matrix(weights, hidden, TensorNames.EMBEDDING, config.vocabulary()));
    output =
        config.tiedEmbeddings()
            ? embedding
            : keep(matrix(weights, hidden, TensorNames.OUTPUT, config.vocabulary()));
    norm = keep(weights.vector(device, TensorNames.NORM, hidden));
    layers = new Layer[config.layers()];
    for (int l = 0; l < layers.length; l++) {
      TensorNames.Layer names = TensorNames.layer(l);
      layers[l] =
          new Layer(
              keep(weights.vector(device, names.attentionNorm(), hidden)),
              keep(
                  weights.matrix(
                      device,
                      hidden,
                      new String[] {names.query(), names.key(), names.value()},
                      new int[] {queries, keyWidth, keyWidth})),
              keep(matrix(weights, queries, names.attentionOutput(), hidden)),
              keep(weights.vector(device, names.feedForwardNorm(), hidden)),
              keep(
                  weights.matrix(
                      device,
                      hidden,
                      new String[] {names.gate(), names.up()},
                      new int[] {inner, inner})),
              keep(matrix(weights, inner, names.down(), hidden)),
              keep(device.floats(positions * keyWidth)),
              keep(device.floats(positions * keyWidth)));
    }
    int half = config.headDim() / 2;
    double[] frequencies = config.inverseFrequencies();
    float[] cosines = new float[positions * half];
    float[] sines = new float[positions * half];
    for (int p = 0; p < positions; p++) {
      for (int i = 0; i < half; i++) {
        double angle = p * frequencies[i];
        cosines[p * half + i] = (float) Math.cos(angle);
        sines[p * half + i] = (float) Math.sin(angle);
      }
    }
    cos = keep(device.upload(cosines));
    sin = keep(device.upload(sines));
    tokens = keep(device.ints(positions + 1));
    position = keep(device.ints(1));
    next = keep(device.ints(1));
    x = keep(device.floats(hidden));
    normed = keep(device.floats(hidden));
    squares = keep(device.floats(Gemv.normParts(hidden)));
    qkv = keep(device.floats(queries + 2 * keyWidth));
    spans = (positions + LlamaKernels.SPAN - 1) / LlamaKernels.SPAN;
    tiles = AttentionTiles.of(config);
    spanValues = keep(device.floats(config.heads() * spans * config.headDim()));
    spanStats = keep(device.floats(config.heads() * spans * 2));
    attention = keep(device.floats(queries));
    act = keep(device.floats(inner));
    logits = keep(device.floats(config.vocabulary()));
    argmaxParts = Rows.scratch(device, 1, config.vocabulary());
  }

  private ShortArray matrix(DeviceWeights weights, int cols, String name, int rows)
      throws IOException {
    return weights.matrix(device, cols, new String[] {name}, new int[] {rows});
  }

  private <A extends DeviceArray<?, ?>> A keep(A array) {
    if (!arrays.contains(array)) {
      arrays.add(array);
    }
    return array;
  }

  /** The positions the cache holds. */
  public int positions() {
    return positions;
  }

  /** The config. */
  public LlamaConfig config() {
    return config;
  }

  /**
   * Records one step into a recording: run it once per position, after {@link #start}.
   *
   * @param promptLength the prompt's tokens, which the steps keep; later positions get the argmax
   * @return the recording, to close after use
   */
  public Recording recordStep(int promptLength) {
    return recordStep(promptLength, java.util.EnumSet.allOf(Part.class));
  }

  /** The kinds of launch of a step, for measuring each kind's share of a step's time. */
  public enum Part {
    /** The matrix-vector products, the weights' reads (in a prefill the matrix products). */
    GEMV,
    /** The attention over the cache, with RoPE and the cache's write. */
    ATTENTION,
    /**
     * The rest: embedding, argmax, advance (and a prefill's norms; a step's take no launch of their
     * own).
     */
    OTHER
  }

  /**
   * Records the launches of a step of the kinds {@code parts} only: for measurements (a step
   * without some of its launches computes nothing meaningful).
   */
  public Recording recordStep(int promptLength, java.util.Set<Part> parts) {
    return device.record(batch -> step(batch, promptLength, parts));
  }

  private void step(Batch batch, int promptLength, java.util.Set<Part> parts) {
    boolean gemvs = parts.contains(Part.GEMV);
    boolean attend = parts.contains(Part.ATTENTION);
    boolean other = parts.contains(Part.OTHER);
    int hidden = config.hidden();
    int headDim = config.headDim();
    int queries = config.heads() * headDim;
    int keyWidth = config.kvHeads() * headDim;
    float eps = config.normEpsilon();
    if (other) {
      LlamaKernelsKernels.embed(
          batch,
          hidden,
          embedding,
          tokens,
          position,
          x,
          layers[0].attentionNorm(),
          normed,
          squares,
          hidden,
          bfloat ? 1 : 0);
    }
    for (int l = 0; l < layers.length; l++) {
      Layer layer = layers[l];
      FloatArray nextNorm = l + 1 < layers.length ? layers[l + 1].attentionNorm() : norm;
      if (gemvs) {
        Gemv.normedProduct(
            batch, layer.qkv(), queries + 2 * keyWidth, hidden, normed, squares, eps, qkv, bfloat);
      }
      if (attend) {
        LlamaKernelsKernels.attendSpan(
            batch,
            config.kvHeads() * spans * LlamaKernels.WORKGROUP,
            qkv,
            position,
            cos,
            sin,
            layer.keys(),
            layer.values(),
            spanValues,
            spanStats,
            config.heads(),
            config.kvHeads(),
            headDim,
            spans,
            (float) (1 / Math.sqrt(headDim)),
            tiles.keys(),
            tiles.values(),
            tiles.queries(),
            tiles.scores());
        LlamaKernelsKernels.attendCombine(
            batch,
            config.heads() * LlamaKernels.WORKGROUP,
            spanValues,
            spanStats,
            position,
            attention,
            headDim,
            spans);
      }
      if (gemvs) {
        Gemv.accumulateForNorm(
            batch,
            layer.attentionOutput(),
            hidden,
            queries,
            attention,
            x,
            layer.feedForwardNorm(),
            normed,
            squares,
            bfloat);
        Gemv.gatedNormedProduct(
            batch,
            layer.gateUp(),
            config.intermediate(),
            hidden,
            normed,
            squares,
            eps,
            act,
            bfloat);
        Gemv.accumulateForNorm(
            batch,
            layer.down(),
            hidden,
            config.intermediate(),
            act,
            x,
            nextNorm,
            normed,
            squares,
            bfloat);
      }
    }
    if (gemvs) {
      Gemv.normedProduct(
          batch, output, config.vocabulary(), hidden, normed, squares, eps, logits, bfloat);
    }
    if (other) {
      Rows.argmax(batch, logits, 1, config.vocabulary(), next, argmaxParts);
      LlamaKernelsKernels.advance(batch, 1, next, tokens, position, promptLength);
    }
  }

  /**
   * Runs the prompt's positions {@code 0} to {@code count - 1} (after {@link #start}) as a prefill:
   * up to {@link #PREFILL_ROWS} positions at once, each layer's products matrix-matrix ({@link
   * dev.kiln.library.Gemm}, on tensor cores where the device has them) with the activations rounded
   * to the weights' 16-bit type as their factors (as PyTorch's float16 model rounds them), the
   * attention causal over the cache; it fills the cache there and moves the position to {@code
   * count}, where the recorded step goes on. No logits: the step at the prompt's last position
   * gives them.
   *
   * @param count the positions, at most the prompt's
   */
  public void prefill(int count) {
    prefill(count, java.util.EnumSet.allOf(Part.class));
  }

  /**
   * Runs the launches of a prefill of the kinds {@code parts} only ({@link Part#GEMV}: the matrix
   * products): for measurements, as {@link #recordStep(int, java.util.Set)}.
   *
   * @return the time the launches took on the device, in nanoseconds (GPU timestamps on Vulkan,
   *     {@link Batch#deviceNanos}), summed over the batches of {@link #PREFILL_ROWS} positions
   */
  public long prefill(int count, java.util.Set<Part> parts) {
    if (count < 0 || count > positions) {
      throw new IllegalArgumentException(count + " positions; the cache holds " + positions);
    }
    if (count > 0 && prefill == null) {
      prefill =
          new Prefill(
              device,
              config,
              bfloat,
              Math.min(PREFILL_ROWS, positions),
              new Prefill.Model(embedding, tokens, cos, sin, layers));
    }
    long nanos = 0;
    for (int start = 0; start < count; start += PREFILL_ROWS) {
      int rows = Math.min(PREFILL_ROWS, count - start);
      try (Batch batch = device.batch()) {
        prefill.run(batch, start, rows, parts);
        batch.submit();
        nanos += batch.deviceNanos();
      }
    }
    moveTo(count);
    return nanos;
  }

  /** The most positions {@link #prefill} runs at once. */
  public static final int PREFILL_ROWS = 512;

  private Prefill prefill;

  /**
   * Starts a sequence: the prompt's tokens at positions 0 on, the position at 0.
   *
   * @param prompt the tokens, at most {@code positions}
   */
  public void start(int[] prompt) {
    if (prompt.length == 0 || prompt.length > positions) {
      throw new IllegalArgumentException(
          "a prompt of " + prompt.length + " tokens; the cache holds " + positions);
    }
    int[] all = new int[positions + 1];
    System.arraycopy(prompt, 0, all, 0, prompt.length);
    tokens.upload(all);
    position.upload(new int[] {0});
  }

  /** Sets the position the next step runs at (its cache before it as earlier steps left it). */
  public void moveTo(int at) {
    position.upload(new int[] {at});
  }

  /** Puts {@code token} at {@code at}: a sampled token in place of the step's argmax. */
  public void choose(int at, int token) {
    tokens.upload(new int[] {token}, 0, at, 1);
  }

  /** The token at {@code at}: the prompt's, or the one a step chose there. */
  public int token(int at) {
    int[] one = new int[1];
    tokens.download(one, 0, at, 1);
    return one[0];
  }

  /** The tokens at positions 0 to {@code count - 1}: the prompt's, then those chosen. */
  public int[] tokens(int count) {
    return java.util.Arrays.copyOf(tokens.toArray(), count);
  }

  /** The logits of the last step. */
  public float[] logits() {
    return logits.toArray();
  }

  @Override
  public void close() {
    if (prefill != null) {
      prefill.close();
    }
    argmaxParts.close();
    for (DeviceArray<?, ?> array : arrays) {
      array.close();
    }
  }
}
