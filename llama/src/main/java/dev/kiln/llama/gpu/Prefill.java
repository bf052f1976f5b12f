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
 * weights' type as their factors; those of few blocks sum k in slices, as {@code Gemm} decides),
 * RoPE with the caches' writes, the causal attention a block of rows at a time, SwiGLU; the last
 * layer stops after its cache writes.
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

  Prefill(Device device, LlamaConfig config, boolean bfloat, int rows, Model model) {
    this.config = config;
    this.bfloat = bfloat;
    this.model = model;
    this.tiles = AttentionTiles.of(config);
    int queries = config.heads() * config.headDim();
    x = device.floats(rows * config.hidden());
    normed = device.shorts(rows * config.hidden());
    qkv = device.floats(rows * (queries + 2 * config.kvHeads() * config.headDim()));
    attended = device.shorts(rows * queries);
    gateUp = device.floats(rows * 2 * config.intermediate());
    act = device.shorts(rows * config.intermediate());
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
        norm(batch, rows, layer.attentionNorm());
      }
      if (products) {
        product(batch, rows, width, hidden, normed, layer.qkv(), 0f, qkv);
      }
      if (attend) {
        PrefillKernelsKernels.ropeRows(
            batch,
            rows * width / 2,
            qkv,
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
        product(batch, rows, hidden, queries, attended, layer.attentionOutput(), 1f, x);
      }
      if (other) {
        norm(batch, rows, layer.feedForwardNorm());
      }
      if (products) {
        product(batch, rows, 2 * inner, hidden, normed, layer.gateUp(), 0f, gateUp);
      }
      if (other) {
        PrefillKernelsKernels.swigluRows(batch, rows * inner, gateUp, act, rows, inner, sixteen);
      }
      if (products) {
        product(batch, rows, hidden, inner, act, layer.down(), 1f, x);
      }
    }
  }

  /** RMSNorm of {@code x}'s rows into {@code normed}. */
  private void norm(Batch batch, int rows, FloatArray weight) {
    PrefillKernelsKernels.normRows(
        batch,
        rows * LlamaKernels.WORKGROUP,
        x,
        weight,
        normed,
        config.hidden(),
        config.normEpsilon(),
        bfloat ? 1 : 0);
  }

  /**
   * {@code c = a · wᵀ + beta · c}: {@code rows} rows of {@code k} by {@code n} rows of weights. A
   * product of few blocks (the products into the residual: 2048 rows of weights and 512 positions
   * make 32 blocks of 128 x 256, a quarter of an H100's multiprocessors) sums k in slices, as
   * {@code Gemm} decides by the shape.
   */
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
    for (var array : List.of(x, normed, qkv, attended, gateUp, act)) {
      array.close();
    }
  }
}
