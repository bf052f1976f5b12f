package dev.kiln.llama.gpu;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels of a decoding step that the library does not have: the embedding of the token at the
 * position, RoPE with the cache's write, attention of one query row over the cache, SwiGLU's
 * product, and the step's advance. Each reads the position (and the token) from device arrays, so
 * that one recording of a step serves every position.
 */
final class LlamaKernels {
  /** Invocations per workgroup. */
  static final int WORKGROUP = 256;

  private LlamaKernels() {}

  /** {@code x} = row {@code tokens[position[0]]} of {@code table}, decoded from 16 bits. */
  @Kernel(workgroup = WORKGROUP)
  static void embed(
      @Buffer(Access.READ) short[] table,
      @Buffer(Access.READ) int[] tokens,
      @Buffer(Access.READ) int[] position,
      @Buffer(Access.WRITE) float[] x,
      int hidden,
      int bfloat) {
    int i = Gpu.globalId(0);
    if (i < hidden) {
      short bits = table[tokens[position[0]] * hidden + i];
      x[i] = bfloat != 0 ? Float.intBitsToFloat(bits << 16) : Float.float16ToFloat(bits);
    }
  }

  /**
   * Rotates the query and key heads of {@code qkv} (queries, then keys, then values, each head
   * {@code headDim} wide) by the position's angles ({@code rotate_half}: element {@code j} with
   * {@code j + headDim / 2}), the queries in place, the keys into the key cache at the position,
   * and copies the values into the value cache there. One invocation per rotated pair, then one per
   * value.
   */
  @Kernel(workgroup = WORKGROUP)
  static void rope(
      float[] qkv,
      @Buffer(Access.READ) int[] position,
      @Buffer(Access.READ) float[] cos,
      @Buffer(Access.READ) float[] sin,
      @Buffer(Access.WRITE) float[] keys,
      @Buffer(Access.WRITE) float[] values,
      int heads,
      int kvHeads,
      int headDim) {
    int i = Gpu.globalId(0);
    int half = headDim / 2;
    int pairs = (heads + kvHeads) * half;
    int kvWidth = kvHeads * headDim;
    int p = position[0];
    if (i < pairs) {
      int head = i / half;
      int j = i % half;
      int at = head * headDim + j;
      float c = cos[p * half + j];
      float s = sin[p * half + j];
      float x1 = qkv[at];
      float x2 = qkv[at + half];
      float first = x1 * c - x2 * s;
      float second = x2 * c + x1 * s;
      if (head < heads) {
        qkv[at] = first;
        qkv[at + half] = second;
      } else {
        int k = p * kvWidth + at - heads * headDim;
        keys[k] = first;
        keys[k + half] = second;
      }
    } else if (i < pairs + kvWidth) {
      int d = i - pairs;
      values[p * kvWidth + d] = qkv[(heads + kvHeads) * headDim + d];
    }
  }

  /**
   * One query head per workgroup: its scores against the cached keys of its key-value head up to
   * the position ({@code q · k · scale}), their softmax, and the weighted sum of the cached values,
   * into {@code out}. {@code positions} sizes the scores' and their exponentials' workgroup memory
   * (the cache's length; two arrays, as the race check does not yet follow an invocation's own
   * element read and written in a loop stepping by the workgroup's size); {@code headDim} divides
   * {@link #WORKGROUP}, whose invocations sum the values in {@code WORKGROUP / headDim} groups of
   * positions.
   */
  @Kernel(workgroup = WORKGROUP)
  static void attend(
      @Buffer(Access.READ) float[] qkv,
      @Buffer(Access.READ) int[] position,
      @Buffer(Access.READ) float[] keys,
      @Buffer(Access.READ) float[] values,
      @Buffer(Access.WRITE) float[] out,
      int heads,
      int kvHeads,
      int headDim,
      int positions,
      float scale) {
    float[] scores = Gpu.sharedFloats(positions);
    float[] weights = Gpu.sharedFloats(positions);
    float[] partial = Gpu.sharedFloats(WORKGROUP);
    int head = Gpu.workgroupId(0);
    int self = Gpu.localId(0);
    int length = position[0] + 1;
    int kvWidth = kvHeads * headDim;
    int kvOffset = head / (heads / kvHeads) * headDim;
    float max = Float.NEGATIVE_INFINITY;
    for (int t = self; t < length; t += WORKGROUP) {
      float dot = 0f;
      for (int d = 0; d < headDim; d++) {
        dot += qkv[head * headDim + d] * keys[t * kvWidth + kvOffset + d];
      }
      scores[t] = dot * scale;
      max = Math.max(max, dot * scale);
    }
    partial[self] = max;
    Gpu.barrier();
    for (int stride = WORKGROUP / 2; stride > 0; stride /= 2) {
      if (self < stride) {
        partial[self] = Math.max(partial[self], partial[self + stride]);
      }
      Gpu.barrier();
    }
    max = partial[0];
    Gpu.barrier();
    float sum = 0f;
    for (int t = self; t < length; t += WORKGROUP) {
      float e = Gpu.exp(scores[t] - max);
      weights[t] = e;
      sum += e;
    }
    partial[self] = sum;
    Gpu.barrier();
    for (int stride = WORKGROUP / 2; stride > 0; stride /= 2) {
      if (self < stride) {
        partial[self] += partial[self + stride];
      }
      Gpu.barrier();
    }
    sum = partial[0];
    Gpu.barrier();
    int groups = WORKGROUP / headDim;
    int group = self / headDim;
    int d = self % headDim;
    float acc = 0f;
    for (int t = group; t < length; t += groups) {
      acc += weights[t] * values[t * kvWidth + kvOffset + d];
    }
    partial[self] = acc;
    Gpu.barrier();
    if (self < headDim) {
      float total = 0f;
      for (int g = 0; g < groups; g++) {
        total += partial[g * headDim + self];
      }
      out[head * headDim + self] = total / sum;
    }
  }

  /**
   * Element {@code i} of {@code out}: an odd multiple of 1/512 in (-1/8, 1/8) from a hash of {@code
   * i} and {@code seed}, times {@code scale}, as float16 bits (bfloat16 where {@code bfloat} is not
   * 0). Never 0: a zero sends a GEMV's chunk of float16 weights down the slow decoding path, which
   * real weights seldom take.
   */
  @Kernel(workgroup = WORKGROUP)
  static void random(@Buffer(Access.WRITE) short[] out, int seed, float scale, int bfloat) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      int mixed = seed + i * 0x9E3779B1;
      mixed = (mixed ^ (mixed >>> 15)) * 0x2C1B3C6D;
      float value = ((mixed >>> 26) - 32 + 0.5f) / 256f * scale;
      out[i] =
          bfloat != 0
              ? (short) (Float.floatToRawIntBits(value) >>> 16)
              : Float.floatToFloat16(value);
    }
  }

  /** SwiGLU's product: {@code out[i] = silu(gateUp[i]) · gateUp[width + i]}. */
  @Kernel(workgroup = WORKGROUP)
  static void swiglu(
      @Buffer(Access.READ) float[] gateUp, @Buffer(Access.WRITE) float[] out, int width) {
    int i = Gpu.globalId(0);
    if (i < width) {
      float gate = gateUp[i];
      out[i] = gate / (1f + Gpu.exp(-gate)) * gateUp[width + i];
    }
  }

  /**
   * Ends a step: the position moves on, and where it is past the prompt the token chosen ({@code
   * next[0]}) is the token there.
   */
  @Kernel(workgroup = 64)
  static void advance(
      @Buffer(Access.READ) int[] next, int[] tokens, int[] position, int promptLength) {
    if (Gpu.globalId(0) == 0) {
      int p = position[0] + 1;
      if (p >= promptLength) {
        tokens[p] = next[0];
      }
      position[0] = p;
    }
  }
}
