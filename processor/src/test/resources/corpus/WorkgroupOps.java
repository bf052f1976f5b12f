package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Workgroup memory, barriers and atomics. */
public final class WorkgroupOps {
  static final int SIZE = 64;

  /** Reverses each workgroup's slice through workgroup memory. */
  @Kernel(workgroup = SIZE)
  static void reverseTiles(float[] in, float[] out) {
    float[] tile = Gpu.sharedFloats(SIZE);
    int i = Gpu.globalId(0);
    int local = Gpu.localId(0);
    tile[local] = i < in.length ? in[i] : -1f;
    Gpu.barrier();
    if (i < out.length) {
      out[i] = tile[SIZE - 1 - local];
    }
  }

  /** Tree sum of each workgroup's slice, then one atomic add per workgroup. */
  @Kernel(workgroup = SIZE)
  static void sum(int[] in, int[] total, int[] perGroup) {
    int[] partial = (Gpu.sharedInts(SIZE)); // parenthesized: it crashed the processor
    int i = Gpu.globalId(0);
    int local = Gpu.localId(0);
    partial[local] = i < in.length ? in[i] : 0;
    Gpu.barrier();
    for (int stride = SIZE / 2; stride > 0; stride >>= 1) {
      if (local < stride) {
        partial[local] += partial[local + stride];
      }
      Gpu.barrier();
    }
    if (local == 0) {
      Gpu.atomicAdd(total, 0, partial[0]);
      perGroup[Gpu.workgroupId(0)] = partial[0];
    }
  }

  /** Every atomic on a buffer, each invocation once; the previous values must be a permutation. */
  @Kernel
  static void atomics(int[] values, int[] cells, int[] previous) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      int v = values[i];
      Gpu.atomicAdd(cells, 0, v);
      Gpu.atomicMin(cells, 1, v);
      Gpu.atomicMax(cells, 2, v);
      Gpu.atomicAnd(cells, 3, v | 0x0f0f0f0f);
      Gpu.atomicOr(cells, 4, v & 0x11111111);
      Gpu.atomicXor(cells, 5, v);
      int old = Gpu.atomicAdd(cells, 6, 1);
      previous[i] = old;
      int seen = Gpu.atomicCompareExchange(cells, 7, 0, i + 1);
      if (seen == 0) {
        Gpu.atomicExchange(cells, 8, i + 1);
      }
    }
  }

  /** Every atomic on a long[] buffer (shaderBufferInt64Atomics), each invocation once. */
  @Kernel
  static void longAtomics(long[] values, long[] cells, long[] previous) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      long v = values[i];
      Gpu.atomicAdd(cells, 0, v);
      Gpu.atomicMin(cells, 1, v);
      Gpu.atomicMax(cells, 2, v);
      Gpu.atomicAnd(cells, 3, v | 0x0f0f0f0f0f0f0f0fL);
      Gpu.atomicOr(cells, 4, v & 0x1111111111111111L);
      Gpu.atomicXor(cells, 5, v);
      previous[i] = Gpu.atomicAdd(cells, 6, 1L << 33) >> 33;
      long seen = Gpu.atomicCompareExchange(cells, 7, 0L, i + 1L << 40);
      if (seen == 0) {
        Gpu.atomicExchange(cells, 8, i + 1L << 40);
      }
    }
  }

  /**
   * Float atomic adds on a buffer (shaderBufferFloat32AtomicAdd) and on workgroup memory
   * (shaderSharedFloat32AtomicAdd): whole numbers, so that every order of the adds gives one sum;
   * the values each workgroup's adds saw count its invocations.
   */
  @Kernel(workgroup = SIZE)
  static void floatAtomics(float[] weights, float[] totals, float[] seen) {
    float[] part = Gpu.sharedFloats(1);
    int i = Gpu.globalId(0);
    if (Gpu.localId(0) == 0) {
      part[0] = 0f;
    }
    Gpu.barrier();
    if (i < weights.length) {
      Gpu.atomicAdd(totals, 0, weights[i]);
      seen[i] = Gpu.atomicAdd(part, 0, 1f);
    }
    Gpu.barrier();
    if (Gpu.localId(0) == 0) {
      Gpu.atomicAdd(totals, 1, part[0]);
    }
  }
}
