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
}
