package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Sum of an int array: subgroup sums, combined in workgroup memory, then one atomic per workgroup. */
public final class Reduction {
  static final int WORKGROUP = 256;

  private Reduction() {}

  @Kernel(workgroup = WORKGROUP)
  static void sum(@Buffer(Access.READ) int[] values, int[] total) {
    int[] partial = Gpu.sharedInts(WORKGROUP); // one slot per subgroup: at most one per invocation
    int i = Gpu.globalId(0);
    int subgroupSum = Gpu.subgroupAdd(i < values.length ? values[i] : 0);
    if (Gpu.subgroupInvocationId() == 0) {
      partial[Gpu.subgroupId()] = subgroupSum;
    }
    Gpu.barrier();
    if (Gpu.localId(0) == 0) {
      int sum = 0;
      for (int s = 0; s < Gpu.numSubgroups(); s++) {
        sum += partial[s];
      }
      Gpu.atomicAdd(total, 0, sum);
    }
  }
}
