package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Kernels the processor vectorizes (4 elements per invocation), each with something to get right. */
public final class Vectorized {
  /**
   * Every element type, buffers of different lengths, an early return, a private array and a loop:
   * each element still runs the whole body in order.
   */
  @Kernel(workgroup = 64)
  static void mixed(float[] f, int[] n, long[] l, double[] d, float s) {
    int i = Gpu.globalId(0);
    if (i % 7 == 3) {
      return;
    }
    float[] weights = {0.5f, 0.25f, 2f};
    float sum = 0f;
    for (int k = 0; k < weights.length; k++) {
      sum += weights[k] * s;
    }
    if (i < f.length) {
      f[i] = f[i] * sum + 1f;
    }
    if (i < n.length) {
      n[i] = n[i] * 3 - i;
    }
    if (i < l.length) {
      l[i] = l[i] + (long) i * 1000000007L;
    }
    if (i < d.length && i < f.length) {
      d[i] = d[i] / 3.0 + f[i];
    }
  }

  /** A write-only output stored by every element: the vector path never reads it. */
  @Kernel(workgroup = 128)
  static void square(@Buffer(Access.READ) float[] x, @Buffer(Access.WRITE) float[] y) {
    int i = Gpu.globalId(0);
    if (i < y.length && i < x.length) {
      y[i] = x[i] * x[i];
    }
  }

  /** Faults: a private array indexed past its end (in the vector path too), and unguarded buffers. */
  @Kernel
  static void faulty(float[] x, int[] picks) {
    int i = Gpu.globalId(0);
    int[] small = new int[2];
    small[picks[i]] = i;
    x[i] = small[0] + small[1];
  }
}
