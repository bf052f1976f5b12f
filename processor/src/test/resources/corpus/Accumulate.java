package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * A buffer element updated more than once by its own invocation, in loops: the most common line of
 * linear-algebra kernels. Each output buffer shares its element type with read-only inputs, the
 * shape that NVIDIA's driver 580 got wrong while Kiln's modules shared one block type per element
 * type (docs/DRIVER-GAPS.md).
 */
public final class Accumulate {
  /** PolyBench's MVT: a product added into the output in a loop. */
  @Kernel(workgroup = 256)
  static void mvt(int n, float[] a, float[] x1, float[] y1) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < n; j++) {
        x1[i] += a[i * n + j] * y1[j];
      }
    }
  }

  /** The same, unchecked. */
  @Kernel(workgroup = 256, boundsChecks = false)
  static void mvtUnchecked(int n, float[] a, float[] x1, float[] y1) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < n; j++) {
        x1[i] += a[i * n + j] * y1[j];
      }
    }
  }

  /** Subtracting and scaling in place, on doubles. */
  @Kernel(workgroup = 64)
  static void doubles(int n, int k, double[] a, double[] out, double[] b) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < k; j++) {
        out[i] -= a[(i * k + j) % a.length] * b[j];
        out[i] *= 0.75;
      }
    }
  }

  /** Integers: +=, -=, *=, ^=, ++ and -- on one element, and on its neighbour slot. */
  @Kernel(workgroup = 32)
  static void integers(int n, int k, int[] a, int[] out, int[] b) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < k; j++) {
        out[2 * i] += a[(i + j) % a.length] * b[j];
        out[2 * i + 1] -= a[j % a.length];
        out[2 * i + 1] *= 3;
        out[2 * i] ^= b[j] >>> 3;
        out[2 * i + 1]++;
        out[2 * i]--;
      }
    }
  }

  /** Longs, in nested loops. */
  @Kernel(workgroup = 64)
  static void longsNested(int n, int k, long[] a, long[] out, long[] b) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < k; j++) {
        for (int m = 0; m < 3; m++) {
          out[i] += a[(i + j + m) % a.length] * b[(j * 3 + m) % b.length];
        }
        out[i] *= 5L;
      }
    }
  }

  /** Read back after each update: a load that must see the invocation's own store. */
  @Kernel(workgroup = 128)
  static void readBack(int n, float[] in, float[] out, int[] trace) {
    int i = Gpu.globalId(0);
    if (i < n) {
      for (int j = 0; j < 8; j++) {
        out[i] += in[(i + j) % in.length] * 2f;
        trace[i] += Float.floatToRawIntBits(out[i]) & 0xff;
      }
    }
  }
}
