package dev.kiln.samples.semantics;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Kernels for {@link SubgroupEmulationTest}: subgroup operations in uniform and in divergent control flow. */
final class SubgroupShapes {
  private SubgroupShapes() {}

  /**
   * A subgroup sum in a loop and under a subgroup-uniform condition, then a barrier and a second
   * level through workgroup memory: the shapes of a real reduction.
   */
  @Kernel(workgroup = 128)
  static void uniform(int[] data, int[] totals, int rounds) {
    int[] partial = Gpu.sharedInts(128);
    int i = Gpu.globalId(0);
    int v = i < data.length ? data[i] : 0;
    for (int r = 0; r < rounds; r++) {
      v = Gpu.subgroupAdd(v) - Gpu.subgroupShuffleXor(v, 1);
    }
    if (Gpu.subgroupId() % 2 == 0) {
      v += Gpu.subgroupInclusiveAdd(1);
    }
    if (Gpu.subgroupInvocationId() == 0) {
      partial[Gpu.subgroupId()] = v;
    }
    Gpu.barrier();
    if (Gpu.subgroupId() == 0) {
      int mine = Gpu.subgroupInvocationId() < Gpu.numSubgroups() ? partial[Gpu.subgroupInvocationId()] : 0;
      int total = Gpu.subgroupAdd(mine);
      if (Gpu.subgroupElect()) {
        totals[Gpu.workgroupId(0)] = total;
      }
    }
    if (i < data.length) {
      data[i] = v;
    }
  }

  /** Even lanes reach a subgroup sum, odd ones a maximum: divergent on purpose. */
  @SuppressWarnings("kiln.subgroup.divergent")
  @Kernel(workgroup = 64)
  static void divergentBranches(int[] out) {
    int l = Gpu.localId(0);
    int s;
    if (l % 2 == 0) {
      s = Gpu.subgroupAdd(1);
    } else {
      s = Gpu.subgroupMax(l);
    }
    out[Gpu.globalId(0)] = s;
  }

  /** A subgroup sum that only even lanes reach, then a barrier that the odd ones wait at: divergent on purpose. */
  @SuppressWarnings("kiln.subgroup.divergent")
  @Kernel(workgroup = 64)
  static void divergentBeforeBarrier(int[] out) {
    int l = Gpu.localId(0);
    int s = 0;
    if (l % 2 == 0) {
      s = Gpu.subgroupAdd(1);
    }
    Gpu.barrier();
    out[Gpu.globalId(0)] = s;
  }
}
