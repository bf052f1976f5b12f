package dev.kiln.samples.semantics;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/**
 * Local array variables that name buffers, as CUDA ports re-point their row pointers
 * ({@link BufferAliasesTest}).
 */
final class BufferAliasKernels {
  private BufferAliasKernels() {}

  /** llm.c's way: {@code x} is the input row while the mean is taken, then the output row. */
  @Kernel(workgroup = {32})
  static void centerRows(@Buffer(Access.READ) float[] inp, float[] out, int rows, int cols) {
    int row = Gpu.globalId(0);
    if (row < rows) {
      float[] x = inp;
      float sum = 0f;
      for (int j = 0; j < cols; j++) {
        sum += x[row * cols + j];
      }
      float mean = sum / cols;
      x = out;
      for (int j = 0; j < cols; j++) {
        x[row * cols + j] = inp[row * cols + j] - mean;
      }
    }
  }

  /**
   * One of two buffers, chosen per invocation; its length, a for-each and a helper through it. The
   * first arm of a fused group, as a kernel that names buffers through variables may be.
   */
  @Kernel(workgroup = {64})
  @FuseGroup("chosenThenDoubled")
  static void chosen(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b, float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      float[] src = (i & 1) == 0 ? a : b;
      float sum = 0f;
      for (float v : src) {
        sum += v;
      }
      out[i] = src[i % src.length] + src.length + sum + first(src);
    }
  }

  /** The second arm: each element doubled. */
  @Kernel(workgroup = {64})
  @FuseGroup(value = "chosenThenDoubled", order = 1)
  static void doubled(float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] *= 2f;
    }
  }

  private static float first(float[] values) {
    return values[0] * 2f;
  }

  /** Two buffers swapped each step, as double-buffered iterations are written. */
  @Kernel(workgroup = {64})
  static void pingPong(float[] a, float[] b, int steps) {
    int i = Gpu.globalId(0);
    if (i < a.length && i < b.length) {
      float[] from = a;
      float[] to = b;
      for (int s = 0; s < steps; s++) {
        to[i] = from[i] * 0.5f + s;
        to[i] += 1f;
        from[i]++;
        float[] swap = from;
        from = to;
        to = swap;
      }
    }
  }

  /** Reads {@code index} of {@code a} or, where {@code useB}, of {@code b}: faults name the buffer. */
  @Kernel
  static void pick(float[] a, float[] b, float[] out, int index, int useB) {
    float[] from = a;
    if (useB != 0) {
      from = b;
    }
    out[0] = from[index];
  }
}
