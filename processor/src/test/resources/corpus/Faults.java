package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Kernels that fault as Java would: out-of-bounds accesses and integer division by zero. */
public final class Faults {
  @Kernel
  static void writeShifted(float[] out, float[] canary, int offset) {
    int i = Gpu.globalId(0);
    out[i + offset] = 1f;
  }

  @Kernel
  static void readShifted(float[] in, float[] out, int offset) {
    int i = Gpu.globalId(0);
    out[i] = in[i + offset] + 1f;
  }

  @Kernel
  static void divide(int[] a, int[] b, int[] quotients, int[] remainders) {
    int i = Gpu.globalId(0);
    quotients[i] = a[i] / b[i];
    remainders[i] = a[i] % b[i];
  }

  @Kernel(boundsChecks = false)
  static void unchecked(float[] in, float[] out) {
    int i = Gpu.globalId(0);
    out[i] = in[i] * 2f;
  }

  /** Every argument of a helper is evaluated, in order, as in Java: the second one here may fault. */
  @Kernel
  static void unusedArgument(float[] x, float[] out, int offset) {
    int i = Gpu.globalId(0);
    out[i] = first(x[i], x[i + offset] * 2f);
  }

  static float first(float a, float b) {
    return a;
  }
}
