package dev.kiln.llama.gpu;

import static dev.kiln.llama.gpu.LlamaKernels.MAX_HEAD;
import static dev.kiln.llama.gpu.LlamaKernels.WORKGROUP;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The prefill's kernels ({@link Prefill}): the decode step's work for a block of rows, each row a
 * position, with 16-bit results where a matrix product takes them as factors.
 */
final class PrefillKernels {
  /**
   * Cache positions per tile of {@link #attendBlock} (the decode's {@link LlamaKernels#SPAN} is its
   * own: the prefill was measured with tiles of 32).
   */
  static final int TILE = 32;

  /** Query vectors (a row's query head) per workgroup of {@link #attendBlock}. */
  static final int VECTORS = 32;

  /** Invocations per query vector of {@link #attendBlock}. */
  static final int SHARERS = WORKGROUP / VECTORS;

  /** Scores of a tile each invocation of {@link #attendBlock} computes. */
  static final int KEYS = TILE / SHARERS;

  /** Elements of its vector's result each invocation of {@link #attendBlock} accumulates. */
  static final int DIMS = MAX_HEAD / SHARERS;

  /** Values of a tile each invocation of {@link #attendBlock} loads. */
  static final int STAGED = TILE * MAX_HEAD / WORKGROUP;

  private PrefillKernels() {}

  /**
   * The prefill's embeddings: row {@code r} of {@code x} ({@code rows} rows) is row {@code
   * tokens[start + r]} of {@code table}, decoded from 16 bits.
   */
  @Kernel(workgroup = WORKGROUP)
  static void embedRows(
      @Buffer(Access.READ) short[] table,
      @Buffer(Access.READ) int[] tokens,
      @Buffer(Access.WRITE) float[] x,
      int start,
      int rows,
      int hidden,
      int bfloat) {
    int i = Gpu.globalId(0);
    if (i < rows * hidden) {
      x[i] = LlamaKernels.decode(table[tokens[start + i / hidden] * hidden + i % hidden], bfloat);
    }
  }

  /**
   * RMSNorm of row {@code workgroupId} of {@code x} into 16-bit {@code out}, the factors of the
   * prefill's products: {@code out[c] = sixteen(x[c] · (1 / sqrt(Σ x² / hidden + eps)) ·
   * weight[c])}, the squares summed per invocation, then as a tree.
   */
  @Kernel(workgroup = WORKGROUP)
  static void normRows(
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.WRITE) short[] out,
      int hidden,
      float eps,
      int bfloat) {
    int start = Gpu.workgroupId(0) * hidden;
    float squares = 0f;
    for (int c = Gpu.localId(0); c < hidden; c += WORKGROUP) {
      squares += x[start + c] * x[start + c];
    }
    normInto(x, start, squares, weight, out, hidden, eps, bfloat);
  }

  /**
   * The row of {@code x} at {@code start} normed into {@code out} ({@link #normRows}), this
   * invocation's sum of the squares of its elements given: the sums folded as a tree.
   */
  private static void normInto(
      float[] x,
      int start,
      float squares,
      float[] weight,
      short[] out,
      int hidden,
      float eps,
      int bfloat) {
    float[] partial = Gpu.sharedFloats(WORKGROUP);
    int self = Gpu.localId(0);
    partial[self] = squares;
    Gpu.barrier();
    for (int stride = WORKGROUP / 2; stride > 0; stride >>= 1) {
      if (self < stride) {
        partial[self] += partial[self + stride];
      }
      Gpu.barrier();
    }
    float scale = 1f / Gpu.sqrt(partial[0] / hidden + eps);
    for (int c = self; c < hidden; c += WORKGROUP) {
      out[start + c] = sixteen(x[start + c] * scale * weight[c], bfloat);
    }
  }

  /**
   * The prefill's RoPE and the caches' writes: row {@code r} of {@code qkv} (queries, keys, values)
   * is position {@code start + r}; its queries are rotated into {@code qkv}, its keys rotated into
   * the key cache and its values copied into the value cache there, as {@link
   * LlamaKernels#attendSpan} does for one position. One invocation per pair of a row's elements.
   */
  @Kernel(workgroup = WORKGROUP)
  static void ropeRows(
      float[] qkv,
      @Buffer(Access.READ) float[] cos,
      @Buffer(Access.READ) float[] sin,
      @Buffer(Access.WRITE) float[] keys,
      @Buffer(Access.WRITE) float[] values,
      int start,
      int rows,
      int heads,
      int kvHeads,
      int headDim) {
    int i = Gpu.globalId(0);
    int width = (heads + 2 * kvHeads) * headDim;
    int half = headDim / 2;
    int kvWidth = kvHeads * headDim;
    if (i < rows * width / 2) {
      int row = i / (width / 2);
      int pair = i % (width / 2);
      int p = start + row;
      int base = row * width;
      if (pair < (heads + kvHeads) * half) {
        int head = pair / half;
        int j = pair % half;
        int at = base + head * headDim + j;
        float c = cos[p * half + j];
        float s = sin[p * half + j];
        float low = qkv[at];
        float high = qkv[at + half];
        float first = low * c - high * s; // rotate_half, as LlamaKernels.rotated
        float second = high * c + low * s;
        if (head < heads) {
          qkv[at] = first;
          qkv[at + half] = second;
        } else {
          int k = p * kvWidth + (head - heads) * headDim + j;
          keys[k] = first;
          keys[k + half] = second;
        }
      } else {
        int d = 2 * (pair - (heads + kvHeads) * half);
        int at = base + (heads + kvHeads) * headDim + d;
        values[p * kvWidth + d] = qkv[at];
        values[p * kvWidth + d + 1] = qkv[at + 1];
      }
    }
  }

  /**
   * The prefill's causal attention, a block of query rows at a time (flash attention): workgroup
   * {@code w · kvHeads + kvHead} takes block {@code blocks - 1 - w}, the {@code VECTORS / group}
   * rows from {@code block · VECTORS / group} of {@code qkv} (rotated; row {@code r} at position
   * {@code start + r}), so that the blocks with the most positions to walk start first (the 1B
   * model's 512-row prefill attention 5.08 to 4.36 ms on the H100, PERFORMANCE.md), for the {@code
   * group} query heads that share key-value head {@code kvHead}: {@link #VECTORS} query vectors,
   * {@link #SHARERS} invocations each. It walks the cache up to its last row's position a tile of
   * {@link #TILE} positions at a time: the tile's keys staged in workgroup memory (its values
   * meanwhile loaded into registers), each vector's scores against them ({@code q · k · scale} in
   * order of the elements; a key past the vector's position scores negative infinity), then the
   * values staged in the keys' place and, per vector, a running maximum, sum and weighted values
   * (the online softmax, in order of the positions). It writes each vector's result in 16 bits to
   * its row of {@code out}. The workgroup arrays' lengths are {@code VECTORS · (headDim + 1)},
   * {@code TILE · (headDim + 1)} and {@code VECTORS · (TILE + 1)}, parameters so that a small head
   * asks for little workgroup memory. Without index checks on the device (measured on the H100: 6.0
   * against 13.4 ms for a 1B model's 512-position prefill, the checks of its workgroup arrays'
   * indices, whose lengths are launch values, being most of its instructions): every index is
   * within the arrays for the lengths {@link Prefill} gives, which {@link DeviceModel#prefill}
   * keeps within the cache; the CPU backend checks them.
   */
  @Kernel(workgroup = WORKGROUP, boundsChecks = false)
  static void attendBlock(
      @Buffer(Access.READ) float[] qkv,
      @Buffer(Access.READ) float[] keys,
      @Buffer(Access.READ) float[] values,
      @Buffer(Access.WRITE) short[] out,
      int start,
      int rows,
      int heads,
      int kvHeads,
      int headDim,
      float scale,
      int bfloat,
      int queriesLength,
      int tileLength,
      int scoresLength) {
    float[] query = Gpu.sharedFloats(queriesLength);
    float[] tile = Gpu.sharedFloats(tileLength);
    float[] scores = Gpu.sharedFloats(scoresLength);
    int group = heads / kvHeads;
    int perBlock = VECTORS / group;
    int blocks = (rows + perBlock - 1) / perBlock;
    int firstRow = (blocks - 1 - Gpu.workgroupId(0) / kvHeads) * perBlock;
    int kvHead = Gpu.workgroupId(0) % kvHeads;
    int self = Gpu.localId(0);
    int vector = self / SHARERS;
    int lane = self % SHARERS;
    int pitch = headDim + 1;
    int kvWidth = kvHeads * headDim;
    int width = (heads + 2 * kvHeads) * headDim;
    int row = firstRow + vector / group;
    int position = start + row;
    int last = start + Math.min(rows, firstRow + perBlock) - 1;
    for (int i = 0; i < VECTORS * MAX_HEAD / WORKGROUP; i++) { // a fixed count: all loads at once
      int e = self + i * WORKGROUP;
      if (e < VECTORS * headDim) {
        int u = e / headDim;
        int r = firstRow + u / group;
        query[u * pitch + e % headDim] =
            u < perBlock * group && r < rows
                ? qkv[r * width + (kvHead * group + u % group) * headDim + e % headDim]
                : 0f;
      }
    }
    float max = Float.NEGATIVE_INFINITY;
    float sum = 0f;
    float[] acc = new float[DIMS];
    float[] staged = new float[STAGED];
    for (int first = 0; first <= last; first += TILE) {
      int count = Math.min(TILE, last + 1 - first);
      for (int i = 0; i < STAGED; i++) {
        int e = self + i * WORKGROUP;
        if (e < TILE * headDim) {
          int t = e / headDim;
          int at = (first + t) * kvWidth + kvHead * headDim + e % headDim;
          tile[t * pitch + e % headDim] = t < count ? keys[at] : 0f;
          staged[i] = t < count ? values[at] : 0f;
        }
      }
      Gpu.barrier();
      float[] dots = new float[KEYS];
      for (int d = 0; d < headDim; d++) {
        float q = query[vector * pitch + d];
        for (int j = 0; j < KEYS; j++) {
          dots[j] += q * tile[(lane + j * SHARERS) * pitch + d];
        }
      }
      for (int j = 0; j < KEYS; j++) {
        int t = lane + j * SHARERS;
        scores[vector * (TILE + 1) + t] =
            t < count && first + t <= position ? dots[j] * scale : Float.NEGATIVE_INFINITY;
      }
      Gpu.barrier();
      for (int i = 0; i < STAGED; i++) {
        int e = self + i * WORKGROUP;
        if (e < TILE * headDim) {
          tile[e / headDim * pitch + e % headDim] = staged[i];
        }
      }
      Gpu.barrier();
      float tileMax = max;
      for (int t = 0; t < TILE; t++) {
        tileMax = Math.max(tileMax, scores[vector * (TILE + 1) + t]);
      }
      float rescale = Gpu.exp(max - tileMax);
      sum *= rescale;
      for (int k = 0; k < DIMS; k++) {
        acc[k] *= rescale;
      }
      for (int t = 0; t < TILE; t++) {
        float weight = Gpu.exp(scores[vector * (TILE + 1) + t] - tileMax);
        sum += weight;
        for (int k = 0; k < DIMS; k++) {
          if (lane + k * SHARERS < headDim) {
            acc[k] += weight * tile[t * pitch + lane + k * SHARERS];
          }
        }
      }
      max = tileMax;
      Gpu.barrier();
    }
    if (vector < perBlock * group && row < rows) {
      for (int k = 0; k < DIMS; k++) {
        int d = lane + k * SHARERS;
        if (d < headDim) {
          out[row * heads * headDim + (kvHead * group + vector % group) * headDim + d] =
              sixteen(acc[k] / sum, bfloat);
        }
      }
    }
  }

  /**
   * The prefill's SwiGLU: {@code out[r][c] = sixteen(silu(gateUp[r][c]) · gateUp[r][width + c])},
   * rows of {@code 2 · width} in, of {@code width} out; SiLU as {@code Gemv.gated} computes it.
   */
  @Kernel(workgroup = WORKGROUP)
  static void swigluRows(
      @Buffer(Access.READ) float[] gateUp,
      @Buffer(Access.WRITE) short[] out,
      int rows,
      int width,
      int bfloat) {
    int i = Gpu.globalId(0);
    if (i < rows * width) {
      int at = i / width * 2 * width + i % width;
      float gate = gateUp[at];
      out[i] = sixteen(gate / (1f + Gpu.exp(-gate)) * gateUp[at + width], bfloat);
    }
  }

  /**
   * {@code v} as float16 bits ({@code Float.floatToFloat16}), or where {@code bfloat} is not 0 as
   * bfloat16 bits rounded to nearest, ties to even (finite values).
   */
  private static short sixteen(float v, int bfloat) {
    int bits = Float.floatToRawIntBits(v);
    return bfloat != 0
        ? (short) ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16)
        : Float.floatToFloat16(v);
  }
}
