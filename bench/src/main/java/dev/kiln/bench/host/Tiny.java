package dev.kiln.bench.host;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** The host benchmarks' kernel: so small that its launch costs more than its work. */
final class Tiny {
  private Tiny() {}

  @Kernel
  static void increment(int[] data) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = data[i] + 1;
    }
  }
}
