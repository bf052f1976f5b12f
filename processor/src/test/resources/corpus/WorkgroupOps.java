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

  /**
   * Workgroup arrays of every element type: each invocation stores its own element, narrowed as
   * Java narrows it, and after a barrier reads the next invocation's; the longs are also summed
   * atomically in workgroup memory (shaderSharedInt64Atomics).
   */
  @Kernel(workgroup = SIZE)
  static void everyElementType(long[] l, double[] d, short[] s, byte[] b, char[] c, boolean[] z, long[] sums) {
    long[] longs = Gpu.sharedLongs(SIZE);
    double[] doubles = Gpu.sharedDoubles(SIZE);
    short[] shorts = Gpu.sharedShorts(SIZE);
    byte[] bytes = Gpu.sharedBytes(SIZE);
    char[] chars = Gpu.sharedChars(SIZE);
    boolean[] flags = Gpu.sharedBooleans(SIZE);
    long[] sum = Gpu.sharedLongs(1);
    int i = Gpu.globalId(0);
    int lid = Gpu.localId(0);
    boolean in = i < l.length && i < d.length && i < s.length && i < b.length && i < c.length && i < z.length;
    if (lid == 0) {
      sum[0] = 0L;
    }
    longs[lid] = in ? l[i] * 3 : -1L;
    doubles[lid] = in ? d[i] / 3 : 0.5;
    shorts[lid] = (short) (in ? s[i] + 1000 : -1);
    bytes[lid] = (byte) (in ? b[i] * 7 : -1);
    chars[lid] = (char) (in ? c[i] + 40000 : 1);
    flags[lid] = in && !z[i];
    Gpu.barrier();
    Gpu.atomicAdd(sum, 0, longs[lid]);
    int next = (lid + 1) % SIZE;
    if (in) {
      l[i] = longs[next];
      d[i] = doubles[next];
      s[i] = shorts[next];
      b[i] = bytes[next];
      c[i] = chars[next];
      z[i] = flags[next];
    }
    Gpu.barrier();
    if (lid == 0 && Gpu.workgroupId(0) < sums.length) {
      sums[Gpu.workgroupId(0)] = sum[0];
    }
  }
}
