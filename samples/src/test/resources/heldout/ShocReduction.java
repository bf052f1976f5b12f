package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** SHOC Reduction: each workgroup sums a grid-strided share in workgroup memory; its first invocation adds the total. */
final class ShocReduction {
  static final double TOLERANCE = 0;
  static final int N = 100_003;
  static final int BLOCK = 256;

  @Kernel(workgroup = BLOCK)
  static void reduce(int[] gIdata, int[] gOdata, int n) {
    int[] sdata = Gpu.sharedInts(BLOCK);
    int tid = Gpu.localId(0);
    int i = Gpu.workgroupId(0) * (BLOCK * 2) + tid;
    int gridSize = BLOCK * 2 * Gpu.numWorkgroups(0);
    sdata[tid] = 0;
    while (i < n) {
      sdata[tid] += gIdata[i];
      if (i + BLOCK < n) {
        sdata[tid] += gIdata[i + BLOCK];
      }
      i += gridSize;
    }
    Gpu.barrier();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (tid < s) {
        sdata[tid] += sdata[tid + s];
      }
      Gpu.barrier();
    }
    if (tid == 0) {
      Gpu.atomicAdd(gOdata, 0, sdata[0]);
    }
  }

  static final int reduceGrid = 64 * BLOCK;

  static Object[] reduceArgs(Random r) {
    int[] values = new int[N];
    for (int i = 0; i < N; i++) {
      values[i] = r.nextInt(2001) - 1000;
    }
    return new Object[] {values, new int[1], N};
  }
}
