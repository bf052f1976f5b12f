package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Assignments, increments and atomics inside expressions, in Java's order and only where Java evaluates them. */
public final class SideEffects {
  private SideEffects() {}

  /** {@code packed[at++]}, {@code a = b = 0}, {@code acc -= i++}, and increments under && and ?:. */
  @Kernel
  static void insideExpressions(int[] in, int[] packed, int[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length && 8 * i + 7 < packed.length && 4 * i + 3 < out.length) {
      int at = 8 * i;
      int v = in[i];
      packed[at++] = v;
      packed[at++] = v >> 8;
      int a;
      int b;
      a = b = v & 15;
      int acc = 100;
      int k = 3;
      acc -= k++;
      acc += k++ * ++k; // left to right: 4 * 6
      boolean shortCircuit = (v & 1) == 0 && packed[at++] == 0; // at moves only where v is even
      int chosen = v < 0 ? a++ : b--;
      packed[at++] = chosen;
      packed[at] = (k += 2) + (a *= 3);
      out[4 * i] = a + 10 * b;
      out[4 * i + 1] = acc;
      out[4 * i + 2] = at + (shortCircuit ? 1000 : 0);
      out[4 * i + 3] = k;
    }
  }

  /** Compound assignments and increments of array elements inside expressions, and an atomic's value. */
  @Kernel(workgroup = 64)
  static void elementsAndAtomics(float[] x, int[] counts, int[] out) {
    int i = Gpu.globalId(0);
    if (i < x.length && i < out.length && counts.length > 1) {
      float scaled = (x[i] *= 2f) + x[i]++; // 2x, then 2x again (the old value), x ends as 2x + 1
      int slot = Gpu.atomicAdd(counts, 0, 1) >= 0 ? 1 : 0; // an atomic's previous value as a value
      int seen = Gpu.atomicMax(counts, 1, i) + 0 >= -1 ? 1 : 0;
      out[i] = (int) scaled + slot + seen + (out[i]++) + ++out[i];
    }
  }
}
