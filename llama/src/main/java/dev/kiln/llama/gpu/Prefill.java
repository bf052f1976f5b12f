package dev.kiln.llama.gpu;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;
import dev.kiln.ShortArray;
import dev.kiln.library.Gemm;
import dev.kiln.llama.gpu.DeviceModel.Part;
import dev.kiln.llama.model.LlamaConfig;
import java.util.List;
import java.util.Set;

/**
 * {@link DeviceModel#prefill}'s launches and arrays, for up to {@code rows} positions at once:
 * embeddings, RMSNorm to 16 bits, the products as {@link Gemm#shorts} (activations rounded to the
 * weights' type as their factors; the narrow ones split along k, their parts added by the launch
 * after them), RoPE with the caches' writes, the causal attention a block of rows at a time,
 * SwiGLU; the last layer stops after its cache writes.
 */
final class Prefill implements AutoCloseable {
  /** The model's arrays a prefill reads (and the caches it writes). */
  record Model(
      ShortArray embedding, IntArray tokens, FloatArray cos, FloatArray sin, Layer[] layers) {}

  private final LlamaConfig config;
  private final boolean bfloat;
  private final Model model;
  private final AttentionTiles tiles;
  private final FloatArray x;
  private final ShortArray normed;
  private final FloatArray qkv;
  private final ShortArray attended;
  private final FloatArray gateUp;
  private final ShortArray act;

  /**
   * The products of the last three quarters of k ({@link #splitProduct}): arrays of their own, so
   * that they overlap; as many as {@link PrefillKernels#addNormRows} adds.
   */
  private final FloatArray[] parts = new FloatArray[3];

  /** The second half of the query, key and value product, split in two along k. */
  private final FloatArray qkvPart;

  Prefill(Device device, LlamaConfig config, boolean bfloat, int rows, Model model) {
    this.config = config;
    this.bfloat = bfloat;
    this.model = model;
    this.tiles = AttentionTiles.of(config);
    int queries = config.heads() * config.headDim();
    x = device.floats(rows * config.hidden());
    normed = device.shorts(rows * config.hidden());
    qkv = device.floats(rows * (queries + 2 * config.kvHeads() * config.headDim()));
    qkvPart = device.floats(rows * (queries + 2 * config.kvHeads() * config.headDim()));
    attended = device.shorts(rows * queries);
    gateUp = device.floats(rows * 2 * config.intermediate());
    act = device.shorts(rows * config.intermediate());
    for (int s = 0; s < parts.length; s++) {
      parts[s] = device.floats(rows * config.hidden());
    }
  }

  /**
   * Records into {@code batch} the {@code parts} of positions {@code start} on, {@code rows} of
   * them.
   */
  void run(Batch batch, int start, int rows, Set<Part> parts) {
    boolean products = parts.contains(Part.GEMV);
    boolean attend = parts.contains(Part.ATTENTION);
    boolean other = parts.contains(Part.OTHER);
    int hidden = config.hidden();
    int headDim = config.headDim();
    int queries = config.heads() * headDim;
    int width = queries + 2 * config.kvHeads() * headDim;
    int inner = config.intermediate();
    int sixteen = bfloat ? 1 : 0;
    if (other) {
      PrefillKernelsKernels.embedRows(
          batch, rows * hidden, model.embedding(), model.tokens(), x, start, rows, hidden, sixteen);
    }
    Layer[] layers = model.layers();
    for (int l = 0; l < layers.length; l++) {
      Layer layer = layers[l];
      if (other) {
        norm(batch, rows, l > 0, layer.attentionNorm());
      }
      if (products) {
        split(batch, rows, width, hidden, normed, layer.qkv(), 0f, qkv, qkvPart);
      }
      if (attend) {
        PrefillKernelsKernels.ropeRows(
            batch,
            rows * width / 2,
            qkv,
            qkvPart,
            model.cos(),
            model.sin(),
            layer.keys(),
            layer.values(),
            start,
            rows,
            config.heads(),
            config.kvHeads(),
            headDim);
      }
      if (l == layers.length - 1) {
        break; // the rest of the last layer feeds only the logits, which a prefill does not give
      }
      if (attend) {
        int perBlock = PrefillKernels.VECTORS / (config.heads() / config.kvHeads());
        PrefillKernelsKernels.attendBlock(
            batch,
            (rows + perBlock - 1) / perBlock * config.kvHeads() * LlamaKernels.WORKGROUP,
            qkv,
            layer.keys(),
            layer.values(),
            attended,
            start,
            rows,
            config.heads(),
            config.kvHeads(),
            headDim,
            (float) (1 / Math.sqrt(headDim)),
            sixteen,
            tiles.blockQueries(),
            tiles.tile(),
            tiles.blockScores());
      }
      if (products) {
        splitProduct(batch, rows, queries, attended, layer.attentionOutput());
      }
      if (other) {
        norm(batch, rows, true, layer.feedForwardNorm());
      }
      if (products) {
        product(batch, rows, 2 * inner, hidden, normed, layer.gateUp(), 0f, gateUp);
      }
      if (other) {
        PrefillKernelsKernels.swigluRows(batch, rows * inner, gateUp, act, rows, inner, sixteen);
      }
      if (products) {
        splitProduct(batch, rows, inner, act, layer.down());
      }
    }
  }

  /**
   * RMSNorm of {@code x}'s rows into {@code normed}, after adding the other parts of a {@link
   * #splitProduct} to {@code x} where {@code afterSplit}.
   */
  private void norm(Batch batch, int rows, boolean afterSplit, FloatArray weight) {
    int hidden = config.hidden();
    int sixteen = bfloat ? 1 : 0;
    if (afterSplit) {
      PrefillKernelsKernels.addNormRows(
          batch,
          rows * LlamaKernels.WORKGROUP,
          x,
          parts[0],
          parts[1],
          parts[2],
          weight,
          normed,
          hidden,
          config.normEpsilon(),
          sixteen);
    } else {
      PrefillKernelsKernels.normRows(
          batch,
          rows * LlamaKernels.WORKGROUP,
          x,
          weight,
          normed,
          hidden,
          config.normEpsilon(),
          sixteen);
    }
  }

  /**
   * {@code x += a · wᵀ} with k split in four parts run side by side: the first added to {@code x},
   * the others written to {@code parts} for the norm after it to add. A product into the residual
   * has as many rows as the hidden size; in workgroups of 128 x 256 a block of 512 positions makes
   * 32 of them, a quarter of an H100's multiprocessors.
   */
  private void splitProduct(Batch batch, int rows, int k, ShortArray a, ShortArray w) {
    split(batch, rows, config.hidden(), k, a, w, 1f, x, parts[0], parts[1], parts[2]);
  }

  /**
   * {@code a · wᵀ} with k split in as many parts as {@code outs}, run side by side (arrays of their
   * own, so that no barrier parts them): part {@code s} to {@code outs[s]}, the first added to
   * {@code beta · outs[0]}, the others overwriting theirs.
   */
  private void split(
      Batch batch,
      int rows,
      int n,
      int k,
      ShortArray a,
      ShortArray w,
      float beta,
      FloatArray... outs) {
    for (int s = 0; s < outs.length; s++) {
      int from = s * k / outs.length;
      int to = (s + 1) * k / outs.length;
      Gemm.shorts(
          batch,
          rows,
          n,
          to - from,
          1f,
          a,
          from,
          k,
          false,
          w,
          from,
          k,
          true,
          s == 0 ? beta : 0f,
          outs[s],
          0,
          n,
          Gemm.Epilogue.forDevice(),
          bfloat);
    }
  }

  /** {@code c = a · wᵀ + beta · c}: {@code rows} rows of {@code k} by {@code n} rows of weights. */
  private void product(
      Batch batch, int rows, int n, int k, ShortArray a, ShortArray w, float beta, FloatArray c) {
    Gemm.shorts(
        batch,
        rows,
        n,
        k,
        1f,
        a,
        0,
        k,
        false,
        w,
        0,
        k,
        true,
        beta,
        c,
        0,
        n,
        Gemm.Epilogue.forDevice(),
        bfloat);
  }

  @Override
  public void close() {
    for (var array : List.of(x, normed, qkv, qkvPart, attended, gateUp, act)) {
      array.close();
    }
    for (FloatArray part : parts) {
      part.close();
    }
  }
}
