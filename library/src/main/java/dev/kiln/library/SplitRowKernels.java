package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * {@link Rows}' kernels for long rows that are few: each row split into {@code parts} runs of
 * {@code span} columns (the last one shorter or empty), one workgroup of {@link #WORKGROUP} per row
 * and part, so that the GPU has enough workgroups. A first kernel folds each part as {@link
 * RowKernels} folds a row (invocation {@code l} the part's columns {@code l, l + 256, ...} in
 * order, then {@link WorkgroupFolds}' tree) into a partial of the row's scratch; a second folds the
 * row's partials in order of the parts, and writes the row's result or normalizes its part. Grids
 * are {@code (parts · 256) x rows}: the part along x, the row along y.
 */
final class SplitRowKernels {
  static final int WORKGROUP = WorkgroupFolds.SIZE;

  private SplitRowKernels() {}

  /**
   * Each part's sum into {@code partials[row * parts + part]}; of squares where {@code squares}.
   */
  @Kernel(workgroup = WORKGROUP)
  static void partialSums(
      @Buffer(Access.READ) float[] m,
      @Buffer(Access.WRITE) float[] partials,
      int cols,
      int span,
      int parts,
      int squares) {
    int row = Gpu.workgroupId(1);
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    float sum = 0f;
    for (int c = first + Gpu.localId(0); c < last; c += WORKGROUP) {
      float v = m[row * cols + c];
      sum += squares != 0 ? v * v : v;
    }
    float total = WorkgroupFolds.sum(sum);
    if (Gpu.localId(0) == 0) {
      partials[row * parts + Gpu.workgroupId(0)] = total;
    }
  }

  /** Each part's largest element ({@code Math.max}; -Infinity for an empty part). */
  @Kernel(workgroup = WORKGROUP)
  static void partialMaxima(
      @Buffer(Access.READ) float[] m,
      @Buffer(Access.WRITE) float[] partials,
      int cols,
      int span,
      int parts) {
    int row = Gpu.workgroupId(1);
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    float best = Float.NEGATIVE_INFINITY;
    for (int c = first + Gpu.localId(0); c < last; c += WORKGROUP) {
      best = Math.max(best, m[row * cols + c]);
    }
    float largest = WorkgroupFolds.max(best);
    if (Gpu.localId(0) == 0) {
      partials[row * parts + Gpu.workgroupId(0)] = largest;
    }
  }

  /**
   * Each part's first largest element in {@code Float.compare}'s order and its column ({@code -1}
   * for an empty part), as {@code RowKernels.argmax} finds a row's.
   */
  @Kernel(workgroup = WORKGROUP)
  static void partialArgmax(
      @Buffer(Access.READ) float[] m,
      @Buffer(Access.WRITE) float[] values,
      @Buffer(Access.WRITE) int[] indices,
      int cols,
      int span,
      int parts) {
    float[] bestValues = Gpu.sharedFloats(WORKGROUP);
    int[] bestIndices = Gpu.sharedInts(WORKGROUP);
    int row = Gpu.workgroupId(1);
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    int l = Gpu.localId(0);
    float best = Float.NEGATIVE_INFINITY;
    int at = -1;
    for (int c = first + l; c < last; c += WORKGROUP) {
      float v = m[row * cols + c];
      if (at < 0 || Float.compare(v, best) > 0) {
        best = v;
        at = c;
      }
    }
    bestValues[l] = best;
    bestIndices[l] = at;
    Gpu.barrier();
    for (int s = WORKGROUP / 2; s > 0; s >>= 1) {
      if (l < s) {
        int other = bestIndices[l + s];
        int order = Float.compare(bestValues[l + s], bestValues[l]);
        if (other >= 0
            && (bestIndices[l] < 0 || order > 0 || order == 0 && other < bestIndices[l])) {
          bestValues[l] = bestValues[l + s];
          bestIndices[l] = other;
        }
      }
      Gpu.barrier();
    }
    if (l == 0) {
      values[row * parts + Gpu.workgroupId(0)] = bestValues[0];
      indices[row * parts + Gpu.workgroupId(0)] = bestIndices[0];
    }
  }

  /**
   * Each part's softmax terms, its largest element {@code max_p} and {@code Σ Gpu.exp(x - max_p)},
   * at {@code 2 (row * parts + part)} and the next, in one read of the part: invocation {@code l}
   * keeps a running maximum {@code m} over its columns in order and its sum rescaled to it ({@code
   * s · Gpu.exp(m - x) + 1} where {@code x} is above {@code m}, else {@code s + Gpu.exp(x - m)}, or
   * nothing for -Infinity); the invocations' pairs are then folded as {@link WorkgroupFolds}' tree
   * folds, {@code (m, s) ∘ (m', s') = (M, s · Gpu.exp(m - M) + s' · Gpu.exp(m' - M))} with {@code M
   * = max(m, m')} and a term 0 where its maximum is -Infinity (an empty part, or one of -Infinity
   * only: its pair is (-Infinity, 0)). Every pair is rescaled at least once, so a +Infinity makes
   * the sum NaN ({@code Gpu.exp(∞ - ∞)}) as the formula does, and so does a NaN (its maximum is the
   * others'). One read where the maximum and the sum took two.
   */
  @Kernel(workgroup = WORKGROUP)
  static void partialSoftmax(
      @Buffer(Access.READ) float[] m,
      @Buffer(Access.WRITE) float[] partials,
      int cols,
      int span,
      int parts) {
    float[] maxima = Gpu.sharedFloats(WORKGROUP);
    float[] sums = Gpu.sharedFloats(WORKGROUP);
    int row = Gpu.workgroupId(1);
    int l = Gpu.localId(0);
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    float best = Float.NEGATIVE_INFINITY;
    float sum = 0f;
    for (int c = first + l; c < last; c += WORKGROUP) {
      float x = m[row * cols + c];
      if (x > best) {
        sum = sum * Gpu.exp(best - x) + 1f;
        best = x;
      } else if (x != Float.NEGATIVE_INFINITY) {
        sum += Gpu.exp(x - best);
      }
    }
    maxima[l] = best;
    sums[l] = sum;
    Gpu.barrier();
    for (int s = WORKGROUP / 2; s > 0; s >>= 1) {
      if (l < s) {
        float one = maxima[l];
        float other = maxima[l + s];
        float top = Math.max(one, other);
        sums[l] = rescaled(sums[l], one, top) + rescaled(sums[l + s], other, top);
        maxima[l] = top;
      }
      Gpu.barrier();
    }
    if (l == 0) {
      int at = 2 * (row * parts + Gpu.workgroupId(0));
      partials[at] = maxima[0];
      partials[at + 1] = sums[0];
    }
  }

  /** {@code sum · Gpu.exp(max - top)}, 0 where {@code max} is -Infinity. */
  private static float rescaled(float sum, float max, float top) {
    return max == Float.NEGATIVE_INFINITY ? 0f : sum * Gpu.exp(max - top);
  }

  /**
   * Each part's sum and, around the part's mean, its sum of squared differences (0 for an empty
   * part), at {@code 2 (row * parts + part)} and the next.
   */
  @Kernel(workgroup = WORKGROUP)
  static void partialMoments(
      @Buffer(Access.READ) float[] m,
      @Buffer(Access.WRITE) float[] partials,
      int cols,
      int span,
      int parts) {
    int row = Gpu.workgroupId(1);
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    float sum = 0f;
    for (int c = first + Gpu.localId(0); c < last; c += WORKGROUP) {
      sum += m[row * cols + c];
    }
    float all = WorkgroupFolds.sum(sum);
    float mean = last > first ? all / (last - first) : 0f;
    float squares = 0f;
    for (int c = first + Gpu.localId(0); c < last; c += WORKGROUP) {
      float d = m[row * cols + c] - mean;
      squares += d * d;
    }
    float spread = WorkgroupFolds.sum(squares);
    if (Gpu.localId(0) == 0) {
      int at = 2 * (row * parts + Gpu.workgroupId(0));
      partials[at] = all;
      partials[at + 1] = spread;
    }
  }

  /** Each row's sum: its parts' sums added in order. One invocation per row. */
  @Kernel(workgroup = 64)
  static void foldSums(
      @Buffer(Access.READ) float[] partials, @Buffer(Access.WRITE) float[] out, int parts) {
    int row = Gpu.globalId(0);
    float sum = 0f;
    for (int p = 0; p < parts; p++) {
      sum += partials[row * parts + p];
    }
    out[row] = sum;
  }

  /** Each row's largest element: its parts' maxima folded in order. One invocation per row. */
  @Kernel(workgroup = 64)
  static void foldMaxima(
      @Buffer(Access.READ) float[] partials, @Buffer(Access.WRITE) float[] out, int parts) {
    int row = Gpu.globalId(0);
    float best = Float.NEGATIVE_INFINITY;
    for (int p = 0; p < parts; p++) {
      best = Math.max(best, partials[row * parts + p]);
    }
    out[row] = best;
  }

  /**
   * Each row's argmax: the first part whose largest element no later part's exceeds ({@code
   * Float.compare}), and that part's column. One invocation per row.
   */
  @Kernel(workgroup = 64)
  static void foldArgmax(
      @Buffer(Access.READ) float[] values,
      @Buffer(Access.READ) int[] indices,
      @Buffer(Access.WRITE) int[] out,
      int parts) {
    int row = Gpu.globalId(0);
    float best = Float.NEGATIVE_INFINITY;
    int at = -1;
    for (int p = 0; p < parts; p++) {
      int index = indices[row * parts + p];
      float v = values[row * parts + p];
      if (index >= 0 && (at < 0 || Float.compare(v, best) > 0)) {
        best = v;
        at = index;
      }
    }
    out[row] = at;
  }

  /**
   * Each part of each row normalized: {@code max} the parts' maxima folded in order, {@code sum =
   * Σ_p sum_p · Gpu.exp(max_p - max)} in order (terms of -Infinity parts 0), then {@code out[c] =
   * Gpu.exp(in[c] - max) * (1 / sum)}.
   */
  @Kernel(workgroup = WORKGROUP)
  static void finishSoftmax(
      @Buffer(Access.READ) float[] in,
      @Buffer(Access.READ) float[] partials,
      @Buffer(Access.WRITE) float[] out,
      int cols,
      int span,
      int parts) {
    int row = Gpu.workgroupId(1);
    float largest = Float.NEGATIVE_INFINITY;
    for (int p = 0; p < parts; p++) {
      largest = Math.max(largest, partials[2 * (row * parts + p)]);
    }
    float total = 0f;
    for (int p = 0; p < parts; p++) {
      float partLargest = partials[2 * (row * parts + p)];
      if (partLargest != Float.NEGATIVE_INFINITY) {
        total += partials[2 * (row * parts + p) + 1] * Gpu.exp(partLargest - largest);
      }
    }
    float scale = 1f / total;
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    for (int c = first + Gpu.localId(0); c < last; c += WORKGROUP) {
      out[row * cols + c] = Gpu.exp(in[row * cols + c] - largest) * scale;
    }
  }

  /**
   * RMSNorm of each part of each row, the sum of squares its parts' added in order: {@code out[c] =
   * in[c] * (1 / Gpu.sqrt(sum / cols + eps)) * weight[c]}.
   */
  @Kernel(workgroup = WORKGROUP)
  static void finishRmsNorm(
      @Buffer(Access.READ) float[] in,
      @Buffer(Access.READ) float[] partials,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.WRITE) float[] out,
      int cols,
      int span,
      int parts,
      float eps) {
    int row = Gpu.workgroupId(1);
    float total = 0f;
    for (int p = 0; p < parts; p++) {
      total += partials[row * parts + p];
    }
    float scale = 1f / Gpu.sqrt(total / cols + eps);
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    for (int c = first + Gpu.localId(0); c < last; c += WORKGROUP) {
      out[row * cols + c] = in[row * cols + c] * scale * weight[c];
    }
  }

  /**
   * LayerNorm of each part of each row: {@code mean = Σ_p sum_p / cols}; the sum of squared
   * differences {@code Σ_p (m2_p + n_p (mean_p - mean)²)} (Chan's merge; {@code mean_p = sum_p /
   * n_p}, empty parts skipped), both in order of the parts; then as {@code RowKernels.layerNorm}.
   */
  @Kernel(workgroup = WORKGROUP)
  static void finishLayerNorm(
      @Buffer(Access.READ) float[] in,
      @Buffer(Access.READ) float[] partials,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.WRITE) float[] out,
      int cols,
      int span,
      int parts,
      float eps) {
    int row = Gpu.workgroupId(1);
    float all = 0f;
    for (int p = 0; p < parts; p++) {
      all += partials[2 * (row * parts + p)];
    }
    float mean = all / cols;
    float spread = 0f;
    for (int p = 0; p < parts; p++) {
      int count = Math.min(cols, p * span + span) - p * span;
      if (count > 0) {
        float d = partials[2 * (row * parts + p)] / count - mean;
        spread += partials[2 * (row * parts + p) + 1] + count * (d * d);
      }
    }
    float scale = 1f / Gpu.sqrt(spread / cols + eps);
    int first = Gpu.workgroupId(0) * span;
    int last = Math.min(cols, first + span);
    for (int c = first + Gpu.localId(0); c < last; c += WORKGROUP) {
      out[row * cols + c] = (in[row * cols + c] - mean) * scale * weight[c] + bias[c];
    }
  }
}
