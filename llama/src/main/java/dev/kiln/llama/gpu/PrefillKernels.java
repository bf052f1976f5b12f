package dev.kiln.llama.gpu;

import static dev.kiln.llama.gpu.LlamaKernels.MAX_GROUP;
import static dev.kiln.llama.gpu.LlamaKernels.MAX_HEAD;
import static dev.kiln.llama.gpu.LlamaKernels.SPAN;
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
  /** The elements of a key-value head's queries each invocation of {@link #attendRows} keeps. */
  static final int PAIRS = MAX_GROUP * MAX_HEAD / WORKGROUP;

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
      short bits = table[tokens[start + i / hidden] * hidden + i % hidden];
      x[i] = bfloat != 0 ? Float.intBitsToFloat(bits << 16) : Float.float16ToFloat(bits);
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
    float[] partial = Gpu.sharedFloats(WORKGROUP);
    int start = Gpu.workgroupId(0) * hidden;
    int self = Gpu.localId(0);
    float squares = 0f;
    for (int c = self; c < hidden; c += WORKGROUP) {
      squares += x[start + c] * x[start + c];
    }
    partial[self] = squares;
    Gpu.barrier();
    for (int stride = WORKGROUP / 2; stride > 0; stride >>= 1) {
      if (self < stride) {
        partial[self] += partial[self + stride];
      }
      Gpu.barrier();
    }
    float total = partial[0];
    float scale = 1f / Gpu.sqrt(total / hidden + eps);
    for (int c = self; c < hidden; c += WORKGROUP) {
      out[start + c] = sixteen(x[start + c] * scale * weight[c], bfloat);
    }
  }

  /**
   * The prefill's RoPE and the caches' writes: row {@code r} of {@code qkv} (queries, keys, values)
   * is position {@code start + r}; its queries are rotated in place, its keys rotated into the key
   * cache and its values copied into the value cache there, as {@link LlamaKernels#attendSpan} does
   * for one position. One invocation per element of a row's queries, keys and values.
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
        float first = LlamaKernels.rotated(qkv, base + head * headDim, j, half, c, s);
        float second = LlamaKernels.rotated(qkv, base + head * headDim, j + half, half, c, s);
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
        values[p * kvWidth + d] = qkv[base + (heads + kvHeads) * headDim + d];
        values[p * kvWidth + d + 1] = qkv[base + (heads + kvHeads) * headDim + d + 1];
      }
    }
  }

  /**
   * The prefill's causal attention: workgroup {@code row · kvHeads + kvHead} takes row {@code row}
   * of {@code qkv} (rotated, position {@code start + row}) for the query heads that share key-value
   * head {@code kvHead}, over the cache up to that position, span by span of {@link
   * LlamaKernels#SPAN}: the span's keys and values staged in workgroup memory as {@link
   * LlamaKernels#attendSpan} stages them, then per element of each head a running maximum, sum and
   * weighted values (the online softmax); it writes the heads' results in 16 bits to row {@code
   * row} of {@code out}. The workgroup arrays' lengths are {@link LlamaKernels#attendSpan}'s.
   */
  @Kernel(workgroup = WORKGROUP)
  static void attendRows(
      @Buffer(Access.READ) float[] qkv,
      @Buffer(Access.READ) float[] keys,
      @Buffer(Access.READ) float[] values,
      @Buffer(Access.WRITE) short[] out,
      int start,
      int heads,
      int kvHeads,
      int headDim,
      float scale,
      int bfloat,
      int keysLength,
      int valuesLength,
      int queriesLength,
      int scoresLength) {
    float[] cached = Gpu.sharedFloats(keysLength);
    float[] staged = Gpu.sharedFloats(valuesLength);
    float[] query = Gpu.sharedFloats(queriesLength);
    float[] scores = Gpu.sharedFloats(scoresLength);
    int row = Gpu.workgroupId(0) / kvHeads;
    int kvHead = Gpu.workgroupId(0) % kvHeads;
    int self = Gpu.localId(0);
    int group = heads / kvHeads;
    int p = start + row;
    int kvWidth = kvHeads * headDim;
    int width = (heads + 2 * kvHeads) * headDim;
    for (int i = 0; i < MAX_GROUP * MAX_HEAD / WORKGROUP; i++) {
      int e = self + i * WORKGROUP;
      if (e < group * headDim) {
        query[e] = qkv[row * width + kvHead * group * headDim + e];
      }
    }
    float[] max = new float[PAIRS];
    float[] sum = new float[PAIRS];
    float[] acc = new float[PAIRS];
    for (int k = 0; k < PAIRS; k++) {
      max[k] = Float.NEGATIVE_INFINITY;
    }
    for (int first = 0; first <= p; first += SPAN) {
      int count = Math.min(SPAN, p + 1 - first);
      for (int i = 0; i < SPAN * MAX_HEAD / WORKGROUP; i++) {
        int e = self + i * WORKGROUP;
        if (e < count * headDim) {
          int t = e / headDim;
          int at = (first + t) * kvWidth + kvHead * headDim + e % headDim;
          cached[t * (headDim + 1) + e % headDim] = keys[at];
          staged[e] = values[at];
        }
      }
      Gpu.barrier();
      if (self < group * SPAN) {
        int t = self % SPAN;
        float score =
            t < count
                ? LlamaKernels.score(query, self / SPAN * headDim, cached, t, headDim) * scale
                : Float.NEGATIVE_INFINITY;
        scores[self] = score;
      }
      Gpu.barrier();
      for (int k = 0; k < PAIRS; k++) {
        int s = self + k * WORKGROUP;
        if (s < group * headDim) {
          int g = s / headDim;
          float spanMax = max[k];
          for (int t = 0; t < count; t++) {
            spanMax = Math.max(spanMax, scores[g * SPAN + t]);
          }
          float rescale = Gpu.exp(max[k] - spanMax);
          sum[k] *= rescale;
          acc[k] *= rescale;
          for (int t = 0; t < count; t++) {
            float weight = Gpu.exp(scores[g * SPAN + t] - spanMax);
            sum[k] += weight;
            acc[k] += weight * staged[t * headDim + s % headDim];
          }
          max[k] = spanMax;
        }
      }
      Gpu.barrier();
    }
    for (int k = 0; k < PAIRS; k++) {
      int s = self + k * WORKGROUP;
      if (s < group * headDim) {
        out[row * heads * headDim + kvHead * group * headDim + s] =
            sixteen(acc[k] / sum[k], bfloat);
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
