package test;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

public final class Races {
  @Kernel
  static void histogram(int[] values, int[] bins, int[] total, int[] own) {
    int i = Gpu.globalId(0);
    if (i < values.length && i < own.length) {
      int v = values[i];
      bins[v & 15]++; // WARNING: [kiln.race.update]
      total[0] += v; // WARNING: [kiln.race.update]
      own[i]++; // each invocation its own element: no warning
      Gpu.atomicAdd(bins, (v >> 4) & 15, 1); // the fix: no warning
    }
  }

  /** The same race in each form Java has for it, the index computed in place or through a local. */
  @Kernel
  static void everyForm(int[] values, int[] bins, int[] own) {
    int i = Gpu.globalId(0);
    if (i < values.length && i < own.length) {
      bins[values[i] & 15]++; // WARNING: [kiln.race.update]
      bins[values[i] & 15] += 1; // WARNING: [kiln.race.update]
      bins[values[i] & 15] = bins[values[i] & 15] + 1; // WARNING: [kiln.race.update]
      int b = values[i] & 15;
      int old = bins[b];
      bins[b] = old + 1; // WARNING: [kiln.race.update]
      int mine = own[i];
      own[i] = mine + 1; // the invocation's own element, through a local: no warning
      bins[b] = values[i]; // a plain write, no read of the element: no warning
    }
  }

  /** A race the programmer states is intended (each value is known to be distinct). */
  @Kernel
  @SuppressWarnings("kiln.race.update")
  static void permutation(int[] order, float[] x) {
    int i = Gpu.globalId(0);
    if (i < order.length) {
      x[order[i]] = x[order[i]] * 2f;
    }
  }

  /** Workgroup memory: the invocations of a workgroup share it as all share a buffer. */
  @Kernel(workgroup = 64)
  static void workgroupCounts(int[] values, int[] out, int[] total) {
    int[] counts = Gpu.sharedInts(16);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    counts[values[i] & 15]++; // WARNING: [kiln.race.update]
    counts[l & 15] += 1; // WARNING: [kiln.race.update] (several invocations share each element)
    Gpu.barrier();
    if (l == 0) {
      counts[0] += counts[1]; // one invocation per workgroup: no warning
      total[0] += counts[0]; // WARNING: [kiln.race.update] (one per workgroup, but every workgroup)
    }
    if (Gpu.globalId(0) == 0) {
      total[1] += 1; // one invocation in all: no warning
    }
    if (l < 16) {
      out[i] = counts[l];
    }
  }
}
