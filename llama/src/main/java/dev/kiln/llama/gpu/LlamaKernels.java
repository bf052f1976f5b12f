package dev.kiln.llama.gpu;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import dev.kiln.library.Gemv;

/**
 * The kernels of a decoding step that the library does not have: the embedding of the token at the
 * position, attention of one query row over the cache (split over its positions, then combined)
 * with RoPE and the cache's write, random weights, and the step's advance. Each reads the position
 * (and the token) from device arrays, so that one recording of a step serves every position.
 */
final class LlamaKernels {
  /** Invocations per workgroup. */
  static final int WORKGROUP = 256;

  /**
   * Cache positions per workgroup of {@link #attendSpan}: 16 measured faster than 32 at 1B, 3B and
   * 8B on the H100 (a shorter chain of each workgroup's sums; 8 is slower at 1B).
   */
  static final int SPAN = 16;

  /** The widest head {@link #attendSpan} stages. */
  static final int MAX_HEAD = 128;

  /** The most query heads {@link #attendSpan} takes per key-value head. */
  static final int MAX_GROUP = 8;

  private LlamaKernels() {}

  /**
   * {@code x} = row {@code tokens[position[0]]} of {@code table}, decoded from 16 bits, with the
   * pieces of its RMSNorm that {@link Gemv#normedProduct} takes, as {@link Gemv#accumulateForNorm}
   * leaves them: {@code normed = x ⊙ weight}, and {@code squares[g]} the sum of {@code x[i]²} over
   * {@code i} from {@code NORM_ROWS · g} on, {@code NORM_ROWS} of them, in order.
   */
  @Kernel(workgroup = WORKGROUP)
  static void embed(
      @Buffer(Access.READ) short[] table,
      @Buffer(Access.READ) int[] tokens,
      @Buffer(Access.READ) int[] position,
      @Buffer(Access.WRITE) float[] x,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.WRITE) float[] normed,
      @Buffer(Access.WRITE) float[] squares,
      int hidden,
      int bfloat) {
    int i = Gpu.globalId(0);
    int row = tokens[position[0]] * hidden;
    if (i < hidden) {
      float value = decode(table[row + i], bfloat);
      x[i] = value;
      normed[i] = value * weight[i];
    }
    if (i < hidden && i % Gemv.NORM_ROWS == 0) {
      float sum = 0f;
      for (int k = i; k < Math.min(hidden, i + Gemv.NORM_ROWS); k++) {
        float value = decode(table[row + k], bfloat);
        sum += value * value;
      }
      squares[i / Gemv.NORM_ROWS] = sum;
    }
  }

  /** {@code bits} decoded: bfloat16 where {@code bfloat} is not 0, else float16. */
  static float decode(short bits, int bfloat) {
    return bfloat != 0 ? Float.intBitsToFloat(bits << 16) : Float.float16ToFloat(bits);
  }

  /**
   * Attention's first half, split over the cache (flash-decoding), with RoPE and the cache's write:
   * workgroup {@code kvHead · spans + span} takes the {@link #SPAN} positions from {@code span ·
   * SPAN} (those up to the position) for the query heads that share key-value head {@code kvHead}.
   * {@code qkv} holds the step's queries, keys and values (heads {@code headDim} wide); the queries
   * and the position's key are rotated by the position's angles ({@code rotate_half}: element
   * {@code j} with {@code j + headDim / 2}), and the workgroup whose span holds the position writes
   * its key and value into the caches (after it has read the span). The workgroup stages the span's
   * keys and the heads' queries in workgroup memory (and its values: each staging loop runs a fixed
   * count of turns whose loads are unconditional, a row past the position reading the position's,
   * so that the driver issues every load before the first store: with the loads inside the turns'
   * branches, and the cache's write among them, the turns waited on each other, 9.5 µs of a 1B
   * layer's 14 on the H100), scores each head against each key ({@code q · k · scale}), takes each
   * score's exponential less its head's maximum once (where each of a head's {@code headDim} sums
   * took all of them, 64 to 128 times as many), and writes per head the scores' maximum and the sum
   * of their exponentials less it ({@code stats}, two floats) and the values weighted by those
   * exponentials ({@code partials}, {@code headDim} floats), at {@code head · spans + span}; a
   * workgroup whose span lies past the position returns before it reads anything ({@link
   * #attendCombine} reads none of its results; the position is an element of a buffer the kernel
   * only reads, so the whole workgroup returns). The loops over a span's positions run over all
   * {@link #SPAN} of them (a score past the position negative infinity, its weight and staged value
   * 0), so that their counts are known when compiled and their reads issued together; the sums are
   * those of the positions up to the position, in order, as they were. {@code headDim} divides
   * {@link #WORKGROUP}, is a multiple of 4 and at most {@link #MAX_HEAD}, and {@code heads /
   * kvHeads} at most {@link #MAX_GROUP}. The workgroup arrays' lengths, {@code SPAN · (headDim +
   * 1)}, {@code SPAN · headDim}, {@code group · headDim} and {@code group · SPAN} (the scores', and
   * again their exponentials'), are parameters so that a small head asks for little workgroup
   * memory (Vulkan promises 16 KiB). A position past the cache is taken as its last (so that every
   * index stays within the arrays: the kernel runs without index checks on the device, measured
   * 0.25 against 0.32 ms of a 1B step's attention on the H100; the CPU backend checks them); the
   * step's {@link #advance} then faults.
   */
  @Kernel(workgroup = WORKGROUP, boundsChecks = false)
  static void attendSpan(
      @Buffer(Access.READ) float[] qkv,
      @Buffer(Access.READ) int[] position,
      @Buffer(Access.READ) float[] cos,
      @Buffer(Access.READ) float[] sin,
      float[] keys,
      float[] values,
      @Buffer(Access.WRITE) float[] partials,
      @Buffer(Access.WRITE) float[] stats,
      int heads,
      int kvHeads,
      int headDim,
      int spans,
      float scale,
      int keysLength,
      int valuesLength,
      int queriesLength,
      int scoresLength) {
    float[] cached = Gpu.sharedFloats(keysLength);
    float[] staged = Gpu.sharedFloats(valuesLength);
    float[] query = Gpu.sharedFloats(queriesLength);
    float[] scores = Gpu.sharedFloats(scoresLength);
    float[] weights = Gpu.sharedFloats(scoresLength);
    float[] maxes = Gpu.sharedFloats(MAX_GROUP);
    int kvHead = Gpu.workgroupId(0) / spans;
    int span = Gpu.workgroupId(0) % spans;
    int self = Gpu.localId(0);
    int group = heads / kvHeads;
    int kvWidth = kvHeads * headDim;
    int half = headDim / 2;
    int p = Math.min(position[0], keys.length / kvWidth - 1);
    int first = span * SPAN;
    int count = Math.min(SPAN, p + 1 - first);
    if (count <= 0) {
      return; // a span past the position: attendCombine reads none of its results
    }
    int newKey = (heads + kvHead) * headDim;
    int newValue = (heads + kvHeads + kvHead) * headDim;
    // Each invocation takes element d of a head in every turn (WORKGROUP is a multiple of headDim),
    // so the position's key and value are computed once; the turns' loads are unconditional and in
    // the cache (a row past the position reads the position's), so that none waits on a branch and
    // the driver issues them all before the first store.
    int d = self % headDim;
    int rows = WORKGROUP / headDim;
    float c = cos[p * half + d % half];
    float sn = sin[p * half + d % half];
    float freshKey = rotated(qkv, newKey, d, half, c, sn);
    float freshValue = qkv[newValue + d];
    for (int i = 0; i < SPAN * MAX_HEAD / WORKGROUP; i++) {
      int e = self + i * WORKGROUP; // t * headDim + d
      int t = self / headDim + i * rows;
      int at = Math.min(first + t, p) * kvWidth + kvHead * headDim + d;
      float key = keys[at];
      float value = values[at];
      if (t < count) {
        cached[t * (headDim + 1) + d] = first + t == p ? freshKey : key;
        staged[e] = first + t == p ? freshValue : value;
      } else if (t < SPAN) {
        staged[e] = 0f; // the weighted sums run over the whole span: past it adds 0
      }
    }
    if (p - first < SPAN && self < headDim) { // the span holds the position: into the caches
      keys[p * kvWidth + kvHead * headDim + self] = freshKey;
      values[p * kvWidth + kvHead * headDim + self] = freshValue;
    }
    for (int i = 0; i < MAX_GROUP * MAX_HEAD / WORKGROUP; i++) {
      int h = Math.min(kvHead * group + self / headDim + i * rows, heads - 1); // in the queries
      float rotatedQuery = rotated(qkv, h * headDim, d, half, c, sn);
      if (self + i * WORKGROUP < group * headDim) {
        query[self + i * WORKGROUP] = rotatedQuery;
      }
    }
    Gpu.barrier();
    for (int s = self; s < group * SPAN; s += WORKGROUP) {
      int g = s / SPAN;
      int t = s % SPAN;
      float score =
          t < count
              ? score(query, g * headDim, cached, t, headDim) * scale
              : Float.NEGATIVE_INFINITY;
      scores[s] = score;
    }
    Gpu.barrier();
    for (int s = self; s < group * SPAN; s += WORKGROUP) { // each exponential once
      int g = s / SPAN;
      float max = spanMax(scores, g * SPAN);
      // past the position 0: its score is negative infinity, and its exponential's is not needed
      weights[s] = s % SPAN < count ? Gpu.exp(scores[s] - max) : 0f;
      if (s % SPAN == 0) {
        maxes[g] = max;
      }
    }
    Gpu.barrier();
    for (int s = self; s < group * headDim; s += WORKGROUP) {
      int g = s / headDim; // element d of its head, as s % headDim is self's
      float max = maxes[g];
      float sum = 0f;
      float acc = 0f;
      for (int t = 0; t < SPAN; t++) { // a fixed count, unrolled; past the position 0 is added
        float weight = weights[g * SPAN + t];
        sum += weight;
        acc += weight * staged[t * headDim + d];
      }
      int at = (kvHead * group + g) * spans + span;
      partials[at * headDim + d] = acc;
      if (d == 0) {
        stats[2 * at] = max;
        stats[2 * at + 1] = sum;
      }
    }
  }

  /**
   * The dot product of the query at {@code at} in {@code query} with staged key {@code t} of {@code
   * cached} (rows {@code headDim + 1} apart), in order of the elements; four a turn ({@code
   * headDim} a multiple of 4), read before they are added, so that a turn waits on workgroup memory
   * once rather than four times.
   */
  static float score(float[] query, int at, float[] cached, int t, int headDim) {
    float dot = 0f;
    int key = t * (headDim + 1);
    for (int d = 0; d < headDim; d += 4) {
      float q0 = query[at + d];
      float q1 = query[at + d + 1];
      float q2 = query[at + d + 2];
      float q3 = query[at + d + 3];
      float k0 = cached[key + d];
      float k1 = cached[key + d + 1];
      float k2 = cached[key + d + 2];
      float k3 = cached[key + d + 3];
      dot += q0 * k0;
      dot += q1 * k1;
      dot += q2 * k2;
      dot += q3 * k3;
    }
    return dot;
  }

  /**
   * The largest of the {@link #SPAN} scores from {@code at} (negative infinity past the position),
   * as four maxima of every fourth side by side, then theirs: {@code Math.max} gives the same
   * whatever the order.
   */
  static float spanMax(float[] scores, int at) {
    float m0 = scores[at];
    float m1 = scores[at + 1];
    float m2 = scores[at + 2];
    float m3 = scores[at + 3];
    for (int t = 4; t < SPAN; t += 4) {
      m0 = Math.max(m0, scores[at + t]);
      m1 = Math.max(m1, scores[at + t + 1]);
      m2 = Math.max(m2, scores[at + t + 2]);
      m3 = Math.max(m3, scores[at + t + 3]);
    }
    return Math.max(Math.max(m0, m1), Math.max(m2, m3));
  }

  /**
   * Element {@code d} of the head at {@code start} in {@code x} rotated by an angle of cosine
   * {@code c} and sine {@code s} ({@code rotate_half}): {@code x[d]·c - x[d + half]·s} in the first
   * half, {@code x[d]·c + x[d - half]·s} in the second.
   */
  static float rotated(float[] x, int start, int d, int half, float c, float s) {
    float element = x[start + d];
    float other = x[start + (d < half ? d + half : d - half)]; // both read before either branch
    return d < half ? element * c - other * s : element * c + other * s;
  }

  /**
   * Attention's second half: workgroup {@code head} writes query head {@code head} of {@code out},
   * the spans' weighted values of {@link #attendSpan} up to the position rescaled to their common
   * maximum, over the sum of their exponentials so rescaled. The {@code WORKGROUP / headDim} groups
   * of {@code headDim} invocations take every so many spans each, in one pass (flash-attention's
   * running maximum): a turn reads four of its spans' maxima, sums and values together, takes the
   * largest of them and the maximum so far, and rescales the sums so far and the four spans' to it
   * ({@code sum · e^(max - next) + Σ e^(m_k - next) · l_k}, in that order; the values alike). Then
   * the first group combines the groups' results, rescaled to their common maximum. One pass, where
   * the maxima were read in a pass before the sums, takes one wait on memory off the kernel: 4.5 →
   * 3.4 µs a 1B layer on the H100. Spans past {@code spans} are not read; without index checks on
   * the device, as {@link #attendSpan}.
   */
  @Kernel(workgroup = WORKGROUP, boundsChecks = false)
  static void attendCombine(
      @Buffer(Access.READ) float[] partials,
      @Buffer(Access.READ) float[] stats,
      @Buffer(Access.READ) int[] position,
      @Buffer(Access.WRITE) float[] out,
      int headDim,
      int spans) {
    float[] maxes = Gpu.sharedFloats(WORKGROUP);
    float[] sums = Gpu.sharedFloats(WORKGROUP);
    float[] accs = Gpu.sharedFloats(WORKGROUP);
    int head = Gpu.workgroupId(0);
    int self = Gpu.localId(0);
    int groups = WORKGROUP / headDim;
    int g = self / headDim;
    int d = self % headDim;
    int used = Math.min(position[0] / SPAN + 1, spans);
    float max = Float.NEGATIVE_INFINITY;
    float sum = 0f;
    float acc = 0f;
    for (int s = g; s < used; s += 4 * groups) { // four spans a turn, all read before any is added
      int at0 = head * spans + s;
      int at1 = at0 + groups;
      int at2 = at1 + groups;
      int at3 = at2 + groups;
      boolean in1 = s + groups < used;
      boolean in2 = s + 2 * groups < used;
      boolean in3 = s + 3 * groups < used;
      float m0 = stats[2 * at0];
      float m1 = in1 ? stats[2 * at1] : Float.NEGATIVE_INFINITY;
      float m2 = in2 ? stats[2 * at2] : Float.NEGATIVE_INFINITY;
      float m3 = in3 ? stats[2 * at3] : Float.NEGATIVE_INFINITY;
      float l0 = stats[2 * at0 + 1];
      float l1 = in1 ? stats[2 * at1 + 1] : 0f;
      float l2 = in2 ? stats[2 * at2 + 1] : 0f;
      float l3 = in3 ? stats[2 * at3 + 1] : 0f;
      float p0 = partials[at0 * headDim + d];
      float p1 = in1 ? partials[at1 * headDim + d] : 0f;
      float p2 = in2 ? partials[at2 * headDim + d] : 0f;
      float p3 = in3 ? partials[at3 * headDim + d] : 0f;
      float next = Math.max(Math.max(max, m0), Math.max(Math.max(m1, m2), m3));
      float kept = Gpu.exp(max - next); // 0 on the first turn (max is negative infinity)
      float w0 = Gpu.exp(m0 - next);
      float w1 = Gpu.exp(m1 - next);
      float w2 = Gpu.exp(m2 - next);
      float w3 = Gpu.exp(m3 - next);
      sum = sum * kept + w0 * l0 + w1 * l1 + w2 * l2 + w3 * l3;
      acc = acc * kept + w0 * p0 + w1 * p1 + w2 * p2 + w3 * p3;
      max = next;
    }
    maxes[self] = max;
    sums[self] = sum;
    accs[self] = acc;
    Gpu.barrier();
    if (g == 0) {
      float all = Float.NEGATIVE_INFINITY;
      for (int k = 0; k < groups; k++) {
        all = Math.max(all, maxes[k * headDim + d]);
      }
      float total = 0f;
      float weighted = 0f;
      for (int k = 0; k < groups && k < used; k++) {
        float weight = Gpu.exp(maxes[k * headDim + d] - all);
        total += weight * sums[k * headDim + d];
        weighted += weight * accs[k * headDim + d];
      }
      out[head * headDim + d] = weighted / total;
    }
  }

  /**
   * Element {@code i} of {@code out}: an odd multiple of 1/512 in (-1/8, 1/8) from a hash of {@code
   * i} and {@code seed}, times {@code scale}, as float16 bits (bfloat16 where {@code bfloat} is not
   * 0); zero where the hash's bits under {@code zeroMask} are 1 (one element in {@code zeroMask +
   * 1} for a mask of low bits; none for 0).
   */
  @Kernel(workgroup = WORKGROUP)
  static void random(
      @Buffer(Access.WRITE) short[] out, int seed, float scale, int bfloat, int zeroMask) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      int mixed = seed + i * 0x9E3779B1;
      mixed = (mixed ^ (mixed >>> 15)) * 0x2C1B3C6D;
      float value = (mixed & zeroMask) == 1 ? 0f : ((mixed >>> 26) - 32 + 0.5f) / 256f * scale;
      out[i] =
          bfloat != 0
              ? (short) (Float.floatToRawIntBits(value) >>> 16)
              : Float.floatToFloat16(value);
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
