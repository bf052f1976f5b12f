package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Counts values into bins: atomics on a buffer, and on workgroup memory first. */
public final class Histogram {
  static final int BINS = 64;

  private Histogram() {}

  /** One atomic add per value on the global bins. */
  @Kernel(workgroup = 256)
  static void histogram(@Buffer(Access.READ) int[] values, int[] bins) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      Gpu.atomicAdd(bins, Math.floorMod(values[i], BINS), 1);
    }
  }

  /** Counts into the workgroup's own bins, then adds those to the global ones: fewer global atomics. */
  @Kernel(workgroup = 256)
  static void histogramShared(@Buffer(Access.READ) int[] values, int[] bins) {
    int[] local = Gpu.sharedInts(BINS);
    int id = Gpu.localId(0);
    if (id < BINS) {
      local[id] = 0;
    }
    Gpu.barrier();
    int i = Gpu.globalId(0);
    if (i < values.length) {
      int value = values[i] % BINS;
      Gpu.atomicAdd(local, value < 0 ? value + BINS : value, 1);
    }
    Gpu.barrier();
    if (id < BINS) {
      Gpu.atomicAdd(bins, id, local[id]);
    }
  }
}
