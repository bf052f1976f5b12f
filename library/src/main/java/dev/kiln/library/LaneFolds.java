package dev.kiln.library;

import dev.kiln.Gpu;

/**
 * Sums over each run of {@link #LANES} consecutive invocations of a workgroup of 256, as a tree in
 * workgroup memory: {@code p[l] += p[l + s]} for {@code s = 16, 8, 4, 2, 1} where {@code l % LANES
 * < s}, a barrier after each step. Every invocation of the run gets the sum. Each call (kernels
 * inline them) has an array of its own; every invocation of the workgroup must call it. {@link
 * #subgroupSum} makes the same additions in the same order in a subgroup of {@link #LANES}, so its
 * sums have the same bits.
 */
final class LaneFolds {
  /** The invocations a run holds: a row of {@link GemvKernels}. */
  static final int LANES = Tuning.GEMV_LANES;

  /** The runs of a workgroup. */
  static final int RUNS = Tuning.GEMV_ROWS;

  private LaneFolds() {}

  /** The sum of {@code value} over this invocation's run. */
  static float sum(float value) {
    float[] p = Gpu.sharedFloats(LANES * RUNS);
    int lane = Gpu.localId(0);
    int at = Gpu.localId(1) * LANES + lane;
    p[at] = value;
    Gpu.barrier();
    for (int s = LANES / 2; s > 0; s >>= 1) {
      if (lane < s) {
        p[at] += p[at + s];
      }
      Gpu.barrier();
    }
    return p[at - lane];
  }

  /**
   * {@link #sum} in a subgroup of {@link #LANES} lanes, each step a shuffle down ({@code v += v of
   * the lane s above}), with no workgroup memory and no barrier; lane 0's result to all. For
   * devices whose subgroups are a run each ({@link Tuning#foldsInSubgroups}): {@link #LANES} lanes,
   * consecutive invocations, x fastest, as the CPU backend emulates them and as the drivers Kiln
   * has run on place them (Vulkan leaves the layout to the driver).
   */
  static float subgroupSum(float value) {
    float v = value;
    for (int s = LANES / 2; s > 0; s >>= 1) {
      float above = Gpu.subgroupShuffleDown(v, s);
      v += above;
    }
    float sum = Gpu.subgroupBroadcast(v, 0);
    return sum;
  }

  /**
   * A gated linear unit of the run's sums: {@code silu(Σ gate) · Σ up}, SiLU as {@link
   * GemmKernels#activate} computes it, each sum as {@link #sum} folds it (one tree for both).
   */
  static float gatedSum(float gate, float up) {
    float[] g = Gpu.sharedFloats(LANES * RUNS);
    float[] u = Gpu.sharedFloats(LANES * RUNS);
    int lane = Gpu.localId(0);
    int at = Gpu.localId(1) * LANES + lane;
    g[at] = gate;
    u[at] = up;
    Gpu.barrier();
    for (int s = LANES / 2; s > 0; s >>= 1) {
      if (lane < s) {
        g[at] += g[at + s];
        u[at] += u[at + s];
      }
      Gpu.barrier();
    }
    return GemmKernels.activate(g[at - lane], GemmKernels.SILU) * u[at - lane];
  }

  /**
   * The sum over the workgroup's runs of {@code value} as each run's first invocation has it, in
   * the runs' order from 0; every invocation gets it.
   */
  static float runsSum(float value) {
    float[] r = Gpu.sharedFloats(RUNS);
    if (Gpu.localId(0) == 0) {
      r[Gpu.localId(1)] = value;
    }
    Gpu.barrier();
    float sum = 0f;
    for (int k = 0; k < RUNS; k++) {
      sum += r[k];
    }
    return sum;
  }

  /**
   * The run's sum of {@code dot} times RMSNorm's scale {@code 1 / Gpu.sqrt(q / cols + eps)}, {@code
   * q} the run's sum of {@code squares}, each sum as {@link #sum} folds it (one tree for both).
   */
  static float normedSum(float dot, float squares, int cols, float eps) {
    float[] d = Gpu.sharedFloats(LANES * RUNS);
    float[] q = Gpu.sharedFloats(LANES * RUNS);
    int lane = Gpu.localId(0);
    int at = Gpu.localId(1) * LANES + lane;
    d[at] = dot;
    q[at] = squares;
    Gpu.barrier();
    for (int s = LANES / 2; s > 0; s >>= 1) {
      if (lane < s) {
        d[at] += d[at + s];
        q[at] += q[at + s];
      }
      Gpu.barrier();
    }
    return d[at - lane] * (1f / Gpu.sqrt(q[at - lane] / cols + eps));
  }

  /**
   * {@code silu(Σ gate · s) · (Σ up · s)}, {@code s} RMSNorm's scale as {@link #normedSum} takes it
   * from the sum of {@code squares}, each sum as {@link #sum} folds it (one tree for the three).
   */
  static float gatedNormedSum(float gate, float up, float squares, int cols, float eps) {
    float[] g = Gpu.sharedFloats(LANES * RUNS);
    float[] u = Gpu.sharedFloats(LANES * RUNS);
    float[] q = Gpu.sharedFloats(LANES * RUNS);
    int lane = Gpu.localId(0);
    int at = Gpu.localId(1) * LANES + lane;
    g[at] = gate;
    u[at] = up;
    q[at] = squares;
    Gpu.barrier();
    for (int s = LANES / 2; s > 0; s >>= 1) {
      if (lane < s) {
        g[at] += g[at + s];
        u[at] += u[at + s];
        q[at] += q[at + s];
      }
      Gpu.barrier();
    }
    float scale = 1f / Gpu.sqrt(q[at - lane] / cols + eps);
    return GemmKernels.activate(g[at - lane] * scale, GemmKernels.SILU) * (u[at - lane] * scale);
  }
}
