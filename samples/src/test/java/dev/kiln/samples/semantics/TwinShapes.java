package dev.kiln.samples.semantics;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * Kernels whose barriers stand inside loops and uniform branches, for {@link CpuTwinTest}: the CPU
 * twin splits them into work-item loops between barriers, and must give what the methods give.
 */
final class TwinShapes {
  private TwinShapes() {}

  /** A barrier in each branch of an {@code if} on a scalar; locals live across the barrier. */
  @Kernel(workgroup = 64)
  static void branches(int[] data, int mode) {
    int[] tile = Gpu.sharedInts(64);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    int mine = i < data.length ? data[i] : 0;
    if (mode > 0) {
      tile[l] = mine;
      Gpu.barrier();
      mine += tile[63 - l];
    } else {
      tile[l] = mine * 3;
      Gpu.barrier();
      mine -= tile[(l + 1) & 63];
    }
    if (i < data.length) {
      data[i] = mine;
    }
  }

  /**
   * Barriers in a loop that breaks and continues uniformly; one workgroup array reused by each
   * round, a private array carried across the barriers.
   */
  @Kernel(workgroup = {16, 4})
  static void rounds(int[] data, int count, int stop) {
    int[] tile = Gpu.sharedInts(64);
    int l = Gpu.localId(1) * 16 + Gpu.localId(0);
    int i = Gpu.globalId(1) * Gpu.numWorkgroups(0) * 16 + Gpu.globalId(0);
    int[] history = new int[4];
    int value = i < data.length ? data[i] : i;
    for (int round = 0; round < count; round++) {
      if (round == stop) {
        break;
      }
      tile[l] = value;
      Gpu.barrier();
      int neighbour = tile[(l + round + 1) & 63];
      Gpu.barrier();
      history[round & 3] += neighbour;
      if (round % 3 == 1) {
        continue;
      }
      value = value * 31 + neighbour;
    }
    if (i < data.length) {
      data[i] = value ^ history[0] ^ history[1] * 3 ^ history[2] * 5 ^ history[3] * 7;
    }
  }

  /** A uniform return before the barrier, and workgroup memory written, read and written again. */
  @Kernel(workgroup = 32)
  static void uniformReturn(float[] data, int limit) {
    float[] tile = Gpu.sharedFloats(32);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    if (Gpu.workgroupId(0) >= limit) {
      return;
    }
    tile[l] = i < data.length ? data[i] : 0f;
    Gpu.barrier();
    float left = tile[(l + 31) & 31];
    Gpu.barrier();
    tile[l] = left * 0.5f;
    Gpu.barrier();
    if (i < data.length) {
      data[i] = tile[31 - l] + left;
    }
  }

  /**
   * {@link #uniformReturn} with the limit and a loop's count in a buffer the kernel only reads (as
   * a decoder's position): their elements at uniform indices decide the return and the loop around
   * the barriers for the whole workgroup.
   */
  @Kernel(workgroup = 32)
  static void bufferDecidedReturn(float[] data, int[] limits) {
    float[] tile = Gpu.sharedFloats(32);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    if (Gpu.workgroupId(0) >= limits[0]) {
      return;
    }
    float value = i < data.length ? data[i] : 0f;
    for (int round = 0; round < limits[1]; round++) {
      tile[l] = value;
      Gpu.barrier();
      value += tile[(l + round + 1) & 31] * 0.25f;
      Gpu.barrier();
    }
    if (i < data.length) {
      data[i] = value;
    }
  }

  /**
   * The shapes whose locals the twin holds once per workgroup or reads as ids (WorkgroupValues): a
   * step halved and a total grown at workgroup level in a loop with barriers, read before and after
   * it changes; a work-item loop cut short at a bound from a parameter, which may lie past the
   * workgroup or below zero; and locals that must stay per invocation: one written under a
   * condition, one from a division that could fault.
   */
  @Kernel(workgroup = 64)
  static void workgroupValues(int[] data, int bound, int divisor) {
    int[] t = Gpu.sharedInts(64);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    int total = 1;
    int late = 0;
    if (divisor > 3) {
      late = 5;
    }
    int shared = divisor != 0 ? 100 / divisor : 7;
    t[l] = i < data.length ? data[i] : 0;
    Gpu.barrier();
    for (int stride = 32; stride > 0; stride >>= 1) {
      if (l < stride) {
        t[l] += t[l + stride] + total;
      }
      total = total * 3 + stride;
      Gpu.barrier();
      if (l < bound) {
        t[l] ^= total + late;
      }
      Gpu.barrier();
    }
    if (i < data.length) {
      data[i] = t[l] + t[0] * total + shared;
    }
  }

  /**
   * Helpers of this class inlined under an {@code if} on a scalar: one with subgroup operations in
   * a loop, one with a barrier, each returning at its end (which leaves no loop around the inlined
   * body for the twin to break out of).
   */
  @Kernel(workgroup = 64)
  static void helperFolds(int[] data, int subgroups) {
    int[] tile = Gpu.sharedInts(64);
    int i = Gpu.globalId(0);
    int mine = i < data.length ? data[i] : 0;
    int folded;
    if (subgroups != 0) {
      folded = subgroupRounds(mine, Gpu.workgroupId(0));
    } else {
      folded = tileSum(tile, mine);
    }
    if (i < data.length) {
      data[i] = folded;
    }
  }

  /**
   * A helper with a loop inlined inside expressions of a kernel with a subgroup operation (whose twin
   * keeps its locals per invocation, as array elements): as an arm of a {@code ?:} assigned to a
   * local, as the right operand of an addition, as a call's second argument and inside an index.
   * The twin must start each of those loops on an empty JVM stack, or HotSpot never compiles it.
   */
  @Kernel(workgroup = 64)
  static void loopsInExpressions(int[] data, int turns) {
    int[] seen = new int[8];
    int i = Gpu.globalId(0);
    int mine = i < data.length ? data[i] : 0;
    int mixed = i < data.length ? mixes(mine, turns) : 0;
    int both = mine + mixes(mine ^ 0x5a5a, turns);
    int larger = Math.max(mine, mixes(mine, turns + 1));
    seen[mixes(mine, turns) & 7] = 1;
    int folded = mixed ^ both ^ larger ^ seen[mine & 7] ^ Gpu.subgroupMax(Gpu.workgroupId(0));
    if (i < data.length) {
      data[i] = folded;
    }
  }

  /** {@code value} mixed over {@code turns} rounds of a multiply and a rotation. */
  private static int mixes(int value, int turns) {
    int v = value;
    for (int t = 0; t < turns; t++) {
      v = Integer.rotateLeft(v * 0x9E3779B1, 7) + t;
    }
    return v;
  }

  /** {@code mine} plus three subgroup maxima of values every lane has (any subgroup size agrees). */
  private static int subgroupRounds(int mine, int group) {
    int v = mine;
    for (int round = 0; round < 3; round++) {
      v += Gpu.subgroupMax(group * 3 + round);
    }
    return v;
  }

  /** The sum of four of the workgroup's values, exchanged through {@code tile}. */
  private static int tileSum(int[] tile, int mine) {
    int l = Gpu.localId(0);
    tile[l] = mine;
    Gpu.barrier();
    int total = 0;
    for (int k = 0; k < 64; k += 16) {
      total += tile[(l + k) & 63];
    }
    return total;
  }
}
