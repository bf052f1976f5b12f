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

  /** Math's *Exact methods: Java's result, or its ArithmeticException where it overflows. */
  @Kernel
  static void exact(int[] a, int[] b, long[] c, long[] d, int[] ints, long[] longs) {
    int i = Gpu.globalId(0);
    if (i < a.length && i < b.length && i < c.length && i < d.length && 6 * i + 5 < ints.length
        && 5 * i + 4 < longs.length) {
      ints[6 * i] = Math.addExact(a[i], b[i]);
      ints[6 * i + 1] = Math.subtractExact(a[i], b[i]);
      ints[6 * i + 2] = Math.multiplyExact(a[i], b[i]);
      ints[6 * i + 3] = Math.negateExact(a[i]) + Math.incrementExact(b[i]);
      ints[6 * i + 4] = Math.decrementExact(a[i]);
      ints[6 * i + 5] = Math.toIntExact(c[i] >> 33);
      longs[5 * i] = Math.addExact(c[i], d[i]);
      longs[5 * i + 1] = Math.subtractExact(c[i], d[i]);
      longs[5 * i + 2] = Math.multiplyExact(c[i] >> 32, d[i] >> 32);
      longs[5 * i + 3] = Math.negateExact(c[i]) + Math.incrementExact(d[i]);
      longs[5 * i + 4] = Math.decrementExact(c[i]);
    }
  }
}
