package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** CUDA samples reduction (reduce3): two elements per invocation, then a tree in workgroup memory. */
final class Reduce {
  static final double TOLERANCE = 0;
  static final int N = 60_001;
  static final int BLOCK = 256;

  @Kernel(workgroup = BLOCK)
  static void reduce3(int[] gIdata, int[] gOdata, int n) {
    int[] sdata = Gpu.sharedInts(BLOCK);
    int tid = Gpu.localId(0);
    int i = Gpu.workgroupId(0) * (BLOCK * 2) + Gpu.localId(0);
    int mySum = (i < n) ? gIdata[i] : 0;
    if (i + BLOCK < n) {
      mySum += gIdata[i + BLOCK];
    }
    sdata[tid] = mySum;
    Gpu.barrier();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (tid < s) {
        sdata[tid] = mySum = mySum + sdata[tid + s];
      }
      Gpu.barrier();
    }
    if (tid == 0) {
      gOdata[Gpu.workgroupId(0)] = mySum;
    }
  }

  static final int reduce3Grid = (N + 2 * BLOCK - 1) / (2 * BLOCK) * BLOCK;

  static Object[] reduce3Args(Random r) {
    int[] values = new int[N];
    for (int i = 0; i < N; i++) {
      values[i] = r.nextInt(2001) - 1000;
    }
    return new Object[] {values, new int[(N + 2 * BLOCK - 1) / (2 * BLOCK)], N};
  }
}
