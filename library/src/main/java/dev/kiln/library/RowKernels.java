package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Rows}: one workgroup of {@link #WORKGROUP} invocations per row of a
 * row-major {@code rows x cols} matrix. Invocation {@code l} folds columns {@code l, l + 256, ...}
 * in order into its partial; the workgroup then combines the 256 partials as a tree ({@code p[l] ∘=
 * p[l + s]} for {@code s = 128, 64, ..., 1}). That order is the results' specification: the CPU
 * backend follows it, so its bits are Vulkan's wherever the kernel uses only Java's arithmetic.
 */
final class RowKernels {
  static final int WORKGROUP = WorkgroupFolds.SIZE;

  /**
   * Columns each invocation holds in registers where a row fits ({@code cols <= WORKGROUP * HELD}),
   * so that softmax and the norms read the row once; longer rows are read again for each pass.
   * Either way the same columns fold in the same order: the same bits.
   */
  static final int HELD = Tuning.ROW_HELD;

  private RowKernels() {}

  /** The sum of each row. */
  @Kernel(workgroup = WORKGROUP)
  static void sums(@Buffer(Access.READ) float[] m, @Buffer(Access.WRITE) float[] out, int cols) {
    int row = Gpu.workgroupId(0);
    float sum = 0f;
    for (int c = Gpu.localId(0); c < cols; c += WORKGROUP) {
      sum += m[row * cols + c];
    }
    float total = WorkgroupFolds.sum(sum);
    if (Gpu.localId(0) == 0) {
      out[row] = total;
    }
  }

  /** The largest element of each row, as {@code Math.max} folds them (NaN if any is). */
  @Kernel(workgroup = WORKGROUP)
  static void maxima(@Buffer(Access.READ) float[] m, @Buffer(Access.WRITE) float[] out, int cols) {
    int row = Gpu.workgroupId(0);
    float best = Float.NEGATIVE_INFINITY;
    for (int c = Gpu.localId(0); c < cols; c += WORKGROUP) {
      best = Math.max(best, m[row * cols + c]);
    }
    float largest = WorkgroupFolds.max(best);
    if (Gpu.localId(0) == 0) {
      out[row] = largest;
    }
  }

  /**
   * The index of each row's first largest element in {@code Float.compare}'s order (NaN above
   * +Infinity, -0.0 below 0.0).
   */
  @Kernel(workgroup = WORKGROUP)
  static void argmax(@Buffer(Access.READ) float[] m, @Buffer(Access.WRITE) int[] out, int cols) {
    float[] values = Gpu.sharedFloats(WORKGROUP);
    int[] indices = Gpu.sharedInts(WORKGROUP);
    int row = Gpu.workgroupId(0);
    int l = Gpu.localId(0);
    float best = Float.NEGATIVE_INFINITY;
    int at = -1;
    for (int c = l; c < cols; c += WORKGROUP) {
      float v = m[row * cols + c];
      if (at < 0 || Float.compare(v, best) > 0) {
        best = v;
        at = c;
      }
    }
    values[l] = best;
    indices[l] = at;
    Gpu.barrier();
    for (int s = WORKGROUP / 2; s > 0; s >>= 1) {
      if (l < s) {
        int other = indices[l + s];
        int order = Float.compare(values[l + s], values[l]);
        if (other >= 0 && (indices[l] < 0 || order > 0 || order == 0 && other < indices[l])) {
          values[l] = values[l + s];
          indices[l] = other;
        }
      }
      Gpu.barrier();
    }
    if (l == 0) {
      out[row] = indices[0];
    }
  }

  /**
   * Each row's softmax: {@code e[c] = Gpu.exp(x[c] - max)}, then {@code e[c] / sum(e)}, the maximum
   * and the sum folded in this class's order.
   */
  @Kernel(workgroup = WORKGROUP)
  static void softmax(
      @Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int cols) {
    int start = Gpu.workgroupId(0) * cols;
    int l = Gpu.localId(0);
    boolean fits = cols <= WORKGROUP * HELD;
    float[] held = new float[HELD];
    float best = Float.NEGATIVE_INFINITY;
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          held[i] = in[start + l + i * WORKGROUP];
          best = Math.max(best, held[i]);
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        best = Math.max(best, in[start + c]);
      }
    }
    float largest = WorkgroupFolds.max(best);
    float sum = 0f;
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          held[i] = Gpu.exp(held[i] - largest);
          sum += held[i];
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        sum += Gpu.exp(in[start + c] - largest);
      }
    }
    float total = WorkgroupFolds.sum(sum);
    float scale = 1f / total;
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          out[start + l + i * WORKGROUP] = held[i] * scale;
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        out[start + c] = Gpu.exp(in[start + c] - largest) * scale;
      }
    }
  }

  /**
   * RMSNorm as Llama applies it: {@code out[c] = x[c] * (1 / Gpu.sqrt(sum(x²) / cols + eps)) *
   * weight[c]}.
   */
  @Kernel(workgroup = WORKGROUP)
  static void rmsNorm(
      @Buffer(Access.READ) float[] in,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.WRITE) float[] out,
      int cols,
      float eps) {
    int start = Gpu.workgroupId(0) * cols;
    int l = Gpu.localId(0);
    boolean fits = cols <= WORKGROUP * HELD;
    float[] held = new float[HELD];
    float squares = 0f;
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          held[i] = in[start + l + i * WORKGROUP];
          squares += held[i] * held[i];
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        float v = in[start + c];
        squares += v * v;
      }
    }
    float total = WorkgroupFolds.sum(squares);
    float scale = 1f / Gpu.sqrt(total / cols + eps);
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          int c = l + i * WORKGROUP;
          out[start + c] = held[i] * scale * weight[c];
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        out[start + c] = in[start + c] * scale * weight[c];
      }
    }
  }

  /**
   * LayerNorm: {@code mean = sum(x) / cols}, {@code var = sum((x - mean)²) / cols}, {@code out[c] =
   * (x[c] - mean) * (1 / Gpu.sqrt(var + eps)) * weight[c] + bias[c]}.
   */
  @Kernel(workgroup = WORKGROUP)
  static void layerNorm(
      @Buffer(Access.READ) float[] in,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.WRITE) float[] out,
      int cols,
      float eps) {
    int start = Gpu.workgroupId(0) * cols;
    int l = Gpu.localId(0);
    boolean fits = cols <= WORKGROUP * HELD;
    float[] held = new float[HELD];
    float total = 0f;
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          held[i] = in[start + l + i * WORKGROUP];
          total += held[i];
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        total += in[start + c];
      }
    }
    float all = WorkgroupFolds.sum(total);
    float mean = all / cols;
    float squares = 0f;
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          float d = held[i] - mean;
          squares += d * d;
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        float d = in[start + c] - mean;
        squares += d * d;
      }
    }
    float spread = WorkgroupFolds.sum(squares);
    float scale = 1f / Gpu.sqrt(spread / cols + eps);
    if (fits) {
      for (int i = 0; i < HELD; i++) {
        if (l + i * WORKGROUP < cols) {
          int c = l + i * WORKGROUP;
          out[start + c] = (held[i] - mean) * scale * weight[c] + bias[c];
        }
      }
    } else {
      for (int c = l; c < cols; c += WORKGROUP) {
        out[start + c] = (in[start + c] - mean) * scale * weight[c] + bias[c];
      }
    }
  }
}
