package test;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import dev.kiln.matrix.MatrixA;
import dev.kiln.matrix.MatrixAccumulator;
import dev.kiln.matrix.MatrixB;
import dev.kiln.matrix.MatrixElement;
import dev.kiln.matrix.MatrixLayout;

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

  /** The same race in each form Java has for it, the index computed in place or through a local. */
  @Kernel
  static void everyForm(int[] values, int[] bins, int[] own) {
    int i = Gpu.globalId(0);
    if (i < values.length && i < own.length) {
      bins[values[i] & 15]++; // WARNING: [kiln.race.update]
      bins[values[i] & 15] += 1; // WARNING: [kiln.race.update]
      bins[values[i] & 15] = bins[values[i] & 15] + 1; // WARNING: [kiln.race.update]
      int b = values[i] & 15;
      int old = bins[b];
      bins[b] = old + 1; // WARNING: [kiln.race.update]
      int mine = own[i];
      own[i] = mine + 1; // the invocation's own element, through a local: no warning
      bins[b] = values[i]; // a plain write, no read of the element: no warning
    }
  }

  /** A race the programmer states is intended (each value is known to be distinct). */
  @Kernel
  @SuppressWarnings("kiln.race.update")
  static void permutation(int[] order, float[] x) {
    int i = Gpu.globalId(0);
    if (i < order.length) {
      x[order[i]] = x[order[i]] * 2f;
    }
  }

  /** Workgroup memory: the invocations of a workgroup share it as all share a buffer. */
  @Kernel(workgroup = 64)
  static void workgroupCounts(int[] values, int[] out, int[] total) {
    int[] counts = Gpu.sharedInts(16);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    counts[values[i] & 15]++; // WARNING: [kiln.race.update]
    counts[l & 15] += 1; // WARNING: [kiln.race.update] (several invocations share each element)
    Gpu.barrier();
    if (l == 0) {
      counts[0] += counts[1]; // one invocation per workgroup: no warning
      total[0] += counts[0]; // WARNING: [kiln.race.update] (one per workgroup, but every workgroup)
    }
    if (Gpu.globalId(0) == 0) {
      total[1] += 1; // one invocation in all: no warning
    }
    if (l < 16) {
      out[i] = counts[l];
    }
  }

  /** Row-major elements, each an invocation's own where the guard bounds the column. */
  @Kernel(workgroup = {16, 16})
  static void rowMajor(int rows, int cols, float[] c, float[] sums, float beta) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row < rows && col < cols) {
      c[row * cols + col] *= beta; // col < cols: each invocation its own element, no warning
      c[(row + 1) * cols + col] += 1f; // the same, a row further: no warning
      sums[col] += 1f; // WARNING: [kiln.race.update] (every row of the column shares it)
    }
    c[row * cols + col] += 1f; // WARNING: [kiln.race.update] (unguarded: col may reach the next row)
  }

  /** A strided column walked by a loop counter: each invocation's elements are its own. */
  @Kernel
  static void strided(int points, int features, float[] f) {
    int p = Gpu.globalId(0);
    if (p < points) {
      for (int k = 0; k < features; k++) {
        f[p + points * k] *= 2f; // no warning
      }
      for (int k = 0; k <= features; k++) {
        f[p + features * k] += 1f; // WARNING: [kiln.race.update] (the stride is not what bounds p)
      }
    }
  }

  /** Workgroup memory indexed row-major by local ids. */
  @Kernel(workgroup = {16, 16})
  static void tile(float[] out) {
    float[] t = Gpu.sharedFloats(256);
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    t[y * 16 + x] = 1f;
    t[y * 16 + x] += 2f; // no warning
    Gpu.barrier();
    t[x * 16 + y] += 1f; // no warning: the column-major twin, after a barrier
    t[x] += 1f; // WARNING: [kiln.race.update] (every y shares it)
    Gpu.barrier();
    out[Gpu.globalId(1) * 16 + Gpu.globalId(0)] = t[y * 16 + x];
    t[x * 16 + y] = 0f; // WARNING: [kiln.race.barrier] (the element another invocation just read)
  }

  /** Plain stores to one element for all: a race only where the values differ. */
  @Kernel
  static void lastWriter(int[] values, int[] last, int[] flag, float[] out, float s) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      last[0] = values[i]; // WARNING: [kiln.race.write]
      flag[0] = 1; // every invocation writes 1: no warning
      out[0] = s * 2f; // a value the same for all: no warning
      if (i == values.length - 1) {
        last[1] = values[i]; // one invocation: no warning
      }
    }
  }

  /** The same in workgroup memory, among the invocations of a workgroup. */
  @Kernel(workgroup = 64)
  static void tileWriter(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[0] = in[Gpu.globalId(0)]; // WARNING: [kiln.race.write]
    t[1] = Gpu.workgroupId(0); // the same in the workgroup: no warning
    Gpu.barrier();
    out[Gpu.globalId(0)] = t[0] + t[1] + l;
  }

  /** Workgroup memory between barriers: what one invocation writes, another reads only after one. */
  @Kernel(workgroup = 64)
  static void barriers(float[] in, float[] out, int[] seen) {
    float[] t = Gpu.sharedFloats(64);
    int[] counts = Gpu.sharedInts(16);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    t[l] = in[i];
    float right = l < 63 ? t[l + 1] : 0f; // WARNING: [kiln.race.barrier] (no barrier since the write)
    Gpu.barrier();
    float left = l > 0 ? t[l - 1] : 0f; // after a barrier: no warning
    t[l] = left + right; // WARNING: [kiln.race.barrier] (a neighbour may still be reading it)
    Gpu.barrier();
    for (int s = 32; s > 0; s >>= 1) {
      if (l < s) {
        t[l] += t[l + s]; // the tree sum, a barrier each step: no warning
      }
      Gpu.barrier();
    }
    if (l == 0) {
      out[Gpu.workgroupId(0)] = t[0]; // after the last step's barrier: no warning
    }
    Gpu.barrier();
    for (int s = 32; s > 0; s >>= 1) {
      if (l < s) {
        t[l] += t[l + s]; // WARNING: [kiln.race.barrier] (the steps are not separated)
      }
    }
    Gpu.atomicAdd(counts, 0, 1);
    Gpu.atomicAdd(counts, 1, l); // two atomics: no warning
    seen[i] = counts[0]; // WARNING: [kiln.race.barrier] (the count may still change)
    seen[i] += counts[l & 15]; // WARNING: [kiln.race.barrier] (the same race through a mask: lanes 16, 32, 48 read counts[0])
    if (l == 0) {
      t[0] = 1f;
    }
    out[i] = t[0]; // WARNING: [kiln.race.barrier] (invocation 0 writes it in this interval)
  }

  /** A loop's turns: what one turn writes after its barrier, the next turn reads before its own. */
  @Kernel(workgroup = 64)
  static void acrossTurns(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l] = in[Gpu.globalId(0)];
    Gpu.barrier();
    for (int k = 0; k < 4; k++) {
      float next = l < 63 ? t[l + 1] : 0f;
      Gpu.barrier();
      t[l] = next; // WARNING: [kiln.race.barrier] (the next turn reads t[l + 1] before any barrier)
    }
    Gpu.barrier();
    out[Gpu.globalId(0)] = t[l];
  }

  /** The same as the first race above, stated to be intended. */
  @Kernel(workgroup = 64)
  @SuppressWarnings("kiln.race.barrier")
  static void intendedNeighbour(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l] = in[Gpu.globalId(0)];
    out[Gpu.globalId(0)] = t[63 - l];
  }

  /** Subgroup operations that only some lanes of a subgroup may reach, beside uniform forms of each. */
  @Kernel(workgroup = 64)
  static void subgroups(int[] values, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= values.length || i >= out.length) {
      return; // lanes that return are inactive: no warning below for this
    }
    int v = values[i];
    int total = Gpu.subgroupAdd(v);
    int s = total;
    if (v > 0) {
      s += Gpu.subgroupMax(v); // WARNING: [kiln.subgroup.divergent]
    }
    if (total > 0) { // a reduction's result: the same in every lane (s is not, once assigned under v > 0)
      s += Gpu.subgroupMin(v);
    }
    if (Gpu.subgroupId() == 0) {
      s += Gpu.subgroupInclusiveAdd(1);
    }
    int t = v > 3 && Gpu.subgroupAny(v > 5) ? 1 : 0; // WARNING: [kiln.subgroup.divergent]
    t += v > 3 & Gpu.subgroupAll(v > 5) ? 1 : 0; // the fix: every lane reaches it
    for (int k = 0; k < v % 4; k++) {
      t += Gpu.subgroupShuffleXor(t, 1); // WARNING: [kiln.subgroup.divergent]
    }
    out[i] = s + t;
  }

  /**
   * Tiles in workgroup memory count as accesses at their first element: one loaded while the
   * invocations are still staging it, one stored over what a neighbour may still read.
   */
  @Kernel(workgroup = 32)
  static void stagedTiles(short[] a, float[] c) {
    short[] staged = Gpu.sharedPackedShorts(256);
    float[] sums = Gpu.sharedFloats(256);
    int l = Gpu.localId(0);
    for (int e = l; e < 256; e += 32) {
      staged[e] = a[Gpu.workgroupId(0) * 256 + e];
    }
    MatrixA early = Gpu.loadMatrixA(staged, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR); // WARNING: [kiln.race.barrier]
    Gpu.barrier();
    MatrixB right = Gpu.loadMatrixB(staged, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR); // after the barrier: no warning
    MatrixAccumulator product = Gpu.multiplyAdd(early, right, Gpu.fillAccumulator(0f));
    float before = sums[l];
    Gpu.storeAccumulator(product, sums, 0, 16, MatrixLayout.ROW_MAJOR); // WARNING: [kiln.race.barrier]
    Gpu.barrier();
    c[Gpu.globalId(0)] = before + sums[(l + 1) & 255];
  }

  /** The tree sum, its loop ended by its barrier, its total read by every invocation after it. */
  @Kernel(workgroup = 64)
  static void treeThenAllRead(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l] = in[Gpu.globalId(0)];
    Gpu.barrier();
    for (int s = 32; s > 0; s >>= 1) {
      if (l < s) {
        t[l] += t[l + s];
      }
      Gpu.barrier();
    }
    out[Gpu.globalId(0)] = t[0] / 64f; // every path from a write in the loop passes its barrier: no warning
  }

  /** Neighbours through a mask, a remainder and a xor, read before any barrier. */
  @Kernel(workgroup = 64)
  static void wrappedNeighbours(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l] = in[Gpu.globalId(0)];
    float a = t[(l + 1) & 63]; // WARNING: [kiln.race.barrier]
    float b = t[(l + 1) % 64]; // WARNING: [kiln.race.barrier]
    float c = t[l ^ 1]; // WARNING: [kiln.race.barrier]
    Gpu.barrier();
    out[Gpu.globalId(0)] = a + b + c + t[(l + 1) & 63]; // after the barrier: no warning
  }

  /** A permutation of the lanes: each invocation reads back the element it wrote. */
  @Kernel(workgroup = 64)
  static void ownSwappedSlot(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l ^ 1] = in[Gpu.globalId(0)];
    out[Gpu.globalId(0)] = t[l ^ 1]; // the element it wrote: no warning
  }

  /** The two sides of a condition on the local id run side by side. */
  @Kernel(workgroup = 64)
  static void sides(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    float v = 0f;
    if (l < 32) {
      t[l] = in[Gpu.globalId(0)];
    } else {
      v = t[l - 32]; // WARNING: [kiln.race.barrier] (the lower half writes it meanwhile)
    }
    Gpu.barrier();
    out[Gpu.globalId(0)] = v + t[l & 31];
  }

  /** A condition the whole workgroup agrees on: one side runs. */
  @Kernel(workgroup = 64)
  static void uniformSides(float[] in, float[] out, int mode) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    float v = 0f;
    if (mode == 0) {
      t[l] = in[Gpu.globalId(0)];
    } else {
      v = t[(l + 1) & 63]; // the other side is not taken in the same launch: no warning
    }
    Gpu.barrier();
    out[Gpu.globalId(0)] = v + t[l];
  }

  /** An invocation that returns early has still written what others read. */
  @Kernel(workgroup = 64)
  static void leftEarly(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    if (in[Gpu.globalId(0)] > 0f) {
      t[l] = 1f;
      return;
    }
    out[Gpu.globalId(0)] = t[(l + 1) & 63]; // WARNING: [kiln.race.barrier] (a neighbour that returned wrote it)
  }

  /** Each invocation scales the elements of its own row, one by one. */
  @Kernel
  static void ownRows(float[] data, int rows, int n, float s) {
    int row = Gpu.globalId(0);
    if (row < rows) {
      for (int j = 0; j < n; j++) {
        data[row * n + j] *= s; // the row's own: no warning
      }
    }
  }

  /** TornadoVM's reduction: each step's barrier at its top; the step's own stride, read and written. */
  @Kernel(workgroup = 64)
  static void barrierAtTheTop(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l] = in[Gpu.globalId(0)];
    for (int stride = 32; stride > 0; stride /= 2) {
      Gpu.barrier();
      if (l < stride) {
        t[l] += t[l + stride]; // the stride changes only after both accesses: no warning
      }
    }
    Gpu.barrier();
    out[Gpu.globalId(0)] = t[0];
  }

  /** Several trees side by side, block k at k * 32: a block's digits stay below 32. */
  @Kernel(workgroup = 32)
  static void blocksOfTrees(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(4 * 32);
    int l = Gpu.localId(0);
    for (int k = 0; k < 4; k++) {
      t[k * 32 + l] = in[(Gpu.globalId(0) + k) % in.length];
    }
    Gpu.barrier();
    for (int s = 16; s > 0; s >>= 1) {
      if (l < s) {
        for (int k = 0; k < 4; k++) {
          t[k * 32 + l] += t[k * 32 + l + s]; // another turn's k is another block: no warning
        }
      }
      Gpu.barrier();
    }
    out[Gpu.globalId(0)] = t[l];
  }

  /** The same with blocks of 16 for 32 invocations: blocks overlap. */
  @Kernel(workgroup = 32)
  static void overlappingBlocks(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(4 * 32);
    int l = Gpu.localId(0);
    float sum = 0f;
    for (int k = 0; k < 4; k++) {
      t[k * 16 + l] = k;
      sum += t[k * 16 + l]; // WARNING: [kiln.race.barrier] (block k + 1 of l - 16 is block k of l)
    }
    out[Gpu.globalId(0)] = sum;
  }

  /** llama.cpp's soft_max: a row per workgroup, its columns from the local id by the workgroup's size. */
  @Kernel(workgroup = 64)
  static void columnsByWorkgroupStride(float[] dst, int ncols, float scale) {
    int row = Gpu.workgroupId(0);
    int tid = Gpu.localId(0);
    for (int col = tid; col < ncols; col += 64) {
      dst[row * ncols + col] *= scale; // each invocation's own columns of its workgroup's row: no warning
    }
    for (int col = tid; col < ncols; col += 32) {
      dst[row * ncols + col] += 1f; // WARNING: [kiln.race.update] (a step of 32: l and l + 32 meet)
    }
    for (int col = 2 * tid; col < ncols; col += 64) {
      dst[row * ncols + col] += 1f; // WARNING: [kiln.race.update] (2 l by 64: l and l + 32 meet)
    }
    for (int col = tid; col < ncols; col += 64) {
      dst[col] += 1f; // WARNING: [kiln.race.update] (every workgroup's row 0)
    }
  }

  /** The same walk over a workgroup array. */
  @Kernel(workgroup = 64)
  static void workgroupColumns(float[] in, float[] out, int n) {
    float[] t = Gpu.sharedFloats(256);
    int l = Gpu.localId(0);
    for (int e = l; e < 256; e += 64) {
      t[e] = 0f;
    }
    Gpu.barrier();
    for (int e = l; e < n && e < 256; e += 64) {
      t[e] += in[e]; // the invocation's own elements: no warning
    }
    Gpu.barrier();
    out[Gpu.globalId(0)] = t[l];
  }

  /** llm.c's grid-stride loops: each invocation's elements are those at its id plus multiples of the dispatch. */
  @Kernel(workgroup = 128)
  static void gridStride(float[] out, float[] bias, int n, int oc) {
    int stride = Gpu.numWorkgroups(0) * 128;
    for (int idx = Gpu.globalId(0); idx < n; idx += stride) {
      out[idx] += bias[idx % oc]; // the invocation's own: no warning
    }
    for (int idx = Gpu.globalId(0); idx < n; idx += Gpu.numWorkgroups(0) * 64) {
      out[idx] += 1f; // WARNING: [kiln.race.update] (half the dispatch: g and g + half meet)
    }
    for (int idx = Gpu.localId(0); idx < n; idx += stride) {
      out[idx] += 1f; // WARNING: [kiln.race.update] (the local id: every workgroup starts there)
    }
  }

  /** One result per workgroup, updated by its first invocation. */
  @Kernel(workgroup = 64)
  static void perWorkgroup(float[] y, float[] z, int[] counts) {
    int row = Gpu.workgroupId(0);
    if (Gpu.localId(0) == 0) {
      y[row] = y[row] + 1f; // the workgroup's own element: no warning
      z[2 * row + 1] += 1f; // the same, two per workgroup: no warning
      counts[row / 2] += 1; // WARNING: [kiln.race.update] (two workgroups share each element)
    }
    y[row] += 1f; // WARNING: [kiln.race.update] (every invocation of the workgroup)
  }

  /** A tree sum, then a loop whose helper returns from either side of a condition. */
  @Kernel(workgroup = 64)
  static void treeThenHelper(float[] in, float[] out, int n) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l] = in[Gpu.globalId(0)];
    Gpu.barrier();
    for (int s = 32; s > 0; s >>= 1) {
      if (l < s) {
        t[l] += t[l + s];
      }
      Gpu.barrier();
    }
    float total = t[0]; // a helper's return is no invocation leaving early: no warning
    for (int c = l; c < n; c += 64) {
      out[c] = clamped(in[c] * total);
    }
  }

  private static float clamped(float v) {
    if (v > 1f) {
      return 1f;
    }
    return v;
  }

  /** A helper that returns early on some invocations: what they read meets what the others write. */
  @Kernel(workgroup = 64)
  static void earlyReturn(float[] in, float[] out) {
    float[] t = Gpu.sharedFloats(64);
    int l = Gpu.localId(0);
    t[l] = in[Gpu.globalId(0)];
    Gpu.barrier();
    out[Gpu.globalId(0)] = peekOrClear(t, l);
  }

  private static float peekOrClear(float[] t, int l) {
    if (l < 32) {
      return t[l + 1];
    }
    t[l] = 0f; // WARNING: [kiln.race.barrier] (lane 31 returned with t[32], which lane 32 writes)
    return 0f;
  }

  /** Trees over both halves of one array, a row of 32 lanes each: the halves' proofs are one. */
  @Kernel(workgroup = {32, 8})
  static void treesOverTwoHalves(float[] in, float[] out) {
    float[] p = Gpu.sharedFloats(512);
    int lane = Gpu.localId(0);
    int at = Gpu.localId(1) * 32 + lane;
    p[at] = in[2 * at];
    p[256 + at] = in[2 * at + 1];
    Gpu.barrier();
    for (int s = 16; s > 0; s >>= 1) {
      if (lane < s) {
        p[at] += p[at + s];
        p[256 + at] += p[256 + at + s];
      }
      Gpu.barrier();
    }
    out[at] = p[at - lane] + p[256 + at - lane];
  }

  /** A tree at an offset the launch gives: the same proof as at 0. */
  @Kernel(workgroup = {32, 8})
  static void treeAtAnOffset(float[] in, float[] out, int offset) {
    float[] p = Gpu.sharedFloats(512);
    int lane = Gpu.localId(0);
    int at = Gpu.localId(1) * 32 + lane;
    p[offset + at] = in[at];
    Gpu.barrier();
    for (int s = 16; s > 0; s >>= 1) {
      if (lane < s) {
        p[offset + at] += p[offset + at + s];
      }
      Gpu.barrier();
    }
    out[at] = p[offset + at - lane];
  }

  /** The upper half's tree reading one element short: lane s - 1 writes what lane 0 reads. */
  @Kernel(workgroup = {32, 8})
  static void upperTreeOneShort(float[] in, float[] out) {
    float[] p = Gpu.sharedFloats(512);
    int lane = Gpu.localId(0);
    int at = Gpu.localId(1) * 32 + lane;
    p[256 + at] = in[at];
    Gpu.barrier();
    for (int s = 16; s > 0; s >>= 1) {
      if (lane < s) {
        p[256 + at] += p[256 + at + s - 1]; // WARNING: [kiln.race.barrier]
      }
      Gpu.barrier();
    }
    out[at] = p[256 + at - lane];
  }
}
