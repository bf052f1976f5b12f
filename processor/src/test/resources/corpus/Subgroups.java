package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Subgroup operations, checked through properties that hold for any subgroup size. */
public final class Subgroups {
  @Kernel
  static void invariants(int[] in, float[] floats, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length) {
      return;
    }
    int v = in[i];
    float f = floats[i];
    int ok = 0;
    ok |= Gpu.subgroupMax(v) >= v ? 1 : 0;
    ok |= Gpu.subgroupMin(v) <= v ? 2 : 0;
    ok |= Gpu.subgroupMax(f) >= f ? 4 : 0;
    ok |= Gpu.subgroupMin(f) <= f ? 8 : 0;
    ok |= Gpu.subgroupBroadcast(Gpu.subgroupInvocationId(), 0) == 0 ? 16 : 0;
    ok |= (Gpu.subgroupBallot(true) & 1) == 1 ? 32 : 0;
    ok |= Gpu.subgroupAdd(1) <= Gpu.subgroupSize() ? 64 : 0;
    ok |= Gpu.subgroupAdd(1f) >= 1f ? 128 : 0;
    ok |= Gpu.subgroupId() < Gpu.numSubgroups() ? 256 : 0;
    ok |= Gpu.subgroupBroadcast(f, 0) == Gpu.subgroupBroadcast(f, 0) ? 512 : 0;
    ok |= Gpu.subgroupAny(true) & !Gpu.subgroupAll(false) ? 1024 : 0;
    ok |= Gpu.subgroupAll(v == v) & Gpu.subgroupAny(v <= Gpu.subgroupMax(v)) ? 2048 : 0;
    ok |= Gpu.subgroupAdd(Gpu.subgroupElect() ? 1 : 0) == 1 ? 4096 : 0;
    out[i] = ok;
  }

  /** The same properties of longs and doubles, whose operations need shaderInt64 and shaderFloat64. */
  @Kernel
  static void wideInvariants(long[] in, double[] doubles, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length || i >= doubles.length || i >= out.length) {
      return;
    }
    long v = in[i];
    double d = doubles[i];
    int ok = 0;
    ok |= Gpu.subgroupMax(v) >= v ? 1 : 0;
    ok |= Gpu.subgroupMin(v) <= v ? 2 : 0;
    ok |= Gpu.subgroupMax(d) >= d ? 4 : 0;
    ok |= Gpu.subgroupMin(d) <= d ? 8 : 0;
    ok |= Gpu.subgroupAdd(1L << 40) <= (long) Gpu.subgroupSize() << 40 ? 16 : 0;
    ok |= Gpu.subgroupAdd(0.5) >= 0.5 ? 32 : 0;
    ok |= Gpu.subgroupBroadcast(v, 0) == Gpu.subgroupBroadcast(v, 0) ? 64 : 0;
    ok |= Gpu.subgroupBroadcast(d, 0) == Gpu.subgroupBroadcast(d, 0) ? 128 : 0;
    out[i] = ok;
  }

  /**
   * Shuffles and scans against the reductions, through properties that hold for any subgroup size:
   * a butterfly of xor shuffles sums like subgroupAdd, a ladder of up shuffles scans like
   * subgroupInclusiveAdd (exact for ints and longs). Launched on whole workgroups, so that every lane
   * is active (those past the arrays' ends read 0): a shuffle from an inactive lane reads what the GPU picks.
   */
  @Kernel(workgroup = 64)
  static void crossLane(int[] in, long[] longs, int[] out) {
    int i = Gpu.globalId(0);
    int v = i < in.length ? in[i] : 0;
    long w = i < longs.length ? longs[i] : 0L;
    int lane = Gpu.subgroupInvocationId();
    int size = Gpu.subgroupSize();
    int butterfly = v;
    long wideButterfly = w;
    for (int mask = 1; mask < size; mask <<= 1) {
      butterfly += Gpu.subgroupShuffleXor(butterfly, mask);
      wideButterfly += Gpu.subgroupShuffleXor(wideButterfly, mask);
    }
    int ladder = v;
    for (int delta = 1; delta < size; delta <<= 1) {
      int below = Gpu.subgroupShuffleUp(ladder, delta);
      if (lane >= delta) {
        ladder += below;
      }
    }
    int ok = 0;
    ok |= butterfly == Gpu.subgroupAdd(v) ? 1 : 0;
    ok |= wideButterfly == Gpu.subgroupAdd(w) ? 2 : 0;
    ok |= ladder == Gpu.subgroupInclusiveAdd(v) ? 4 : 0;
    ok |= Gpu.subgroupExclusiveAdd(v) + v == Gpu.subgroupInclusiveAdd(v) ? 8 : 0;
    ok |= Gpu.subgroupExclusiveAdd(w) + w == Gpu.subgroupInclusiveAdd(w) ? 16 : 0;
    // every lane reaches every operation: none on one side of && or || (subgroup-uniform control flow)
    ok |= Gpu.subgroupShuffle(v, lane) == v & Gpu.subgroupShuffle(w, lane) == w ? 32 : 0;
    ok |= Gpu.subgroupShuffle(v, 0) == Gpu.subgroupBroadcast(v, 0) ? 64 : 0;
    int next = Gpu.subgroupShuffleDown(v, 1);
    int above = Gpu.subgroupShuffle(v, lane + 1);
    ok |= lane + 1 >= size || next == above ? 128 : 0;
    ok |= Gpu.subgroupInclusiveAdd(1.0) == lane + 1 & Gpu.subgroupExclusiveAdd(1f) == lane ? 256 : 0;
    ok |= Gpu.subgroupShuffleXor(0.5f * v, 0) == 0.5f * v & Gpu.subgroupShuffleUp((double) w, 0) == (double) w ? 512 : 0;
    if (i < out.length) {
      out[i] = ok;
    }
  }

  /** Clustered reductions (which lavapipe does not offer): properties of any cluster and subgroup size. */
  @Kernel(workgroup = 64)
  static void clusters(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    int v = i < in.length ? in[i] : 0;
    int ok = 0;
    ok |= Gpu.subgroupClusteredAdd(v, 1) == v ? 1 : 0;
    ok |= Gpu.subgroupClusteredMax(v, 4) >= v & Gpu.subgroupClusteredMin(v, 4) <= v ? 2 : 0;
    ok |= Gpu.subgroupClusteredAdd(1, 2) <= 2 & Gpu.subgroupClusteredAdd(1L, 2) >= 1L ? 4 : 0;
    ok |= Gpu.subgroupClusteredMax(0.25f * v, 2) >= 0.25f * v ? 8 : 0;
    if (i < out.length) {
      out[i] = ok;
    }
  }

  /**
   * Values that depend on the subgroup size and on each lane's neighbours: the CPU backend,
   * emulating the device's size, gives the same bits. Launched on whole workgroups (every lane
   * active); lanes whose shuffle has no source lane write -1.
   */
  @Kernel(workgroup = 64)
  static void lanes(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    int v = i < in.length ? in[i] : 0;
    int lane = Gpu.subgroupInvocationId();
    int size = Gpu.subgroupSize();
    int neighbour = Gpu.subgroupShuffleXor(v, 1);
    int inclusive = Gpu.subgroupInclusiveAdd(v);
    int exclusive = Gpu.subgroupExclusiveAdd(v);
    int up = Gpu.subgroupShuffleUp(v, 1);
    int down = Gpu.subgroupShuffleDown(v, 2);
    int total = Gpu.subgroupAdd(v) ^ Gpu.subgroupBallot((v & 1) != 0);
    int first = Gpu.subgroupBroadcast(v, 1) + (Gpu.subgroupElect() ? 1 : 0);
    int scattered = Gpu.subgroupShuffle(v, (lane * 5 + 3) & (size - 1));
    long wide = Gpu.subgroupInclusiveAdd((long) v << 20);
    if (8 * i + 7 < out.length) {
      out[8 * i] = neighbour;
      out[8 * i + 1] = inclusive;
      out[8 * i + 2] = exclusive;
      out[8 * i + 3] = lane >= 1 ? up : -1;
      out[8 * i + 4] = lane + 2 < size ? down : -1;
      out[8 * i + 5] = total;
      out[8 * i + 6] = first + lane * 1000 + Gpu.subgroupId() * 100000 + Gpu.numSubgroups();
      out[8 * i + 7] = scattered ^ (int) (wide >>> 24);
    }
  }

  /**
   * Reductions, scans, ballots and votes over the active lanes only: those past the launch's count
   * and those that returned early take no part.
   */
  @Kernel(workgroup = 64)
  static void activeLanes(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length || in[i] % 7 == 0) {
      return;
    }
    int v = in[i];
    int sum = Gpu.subgroupAdd(v);
    int inclusive = Gpu.subgroupInclusiveAdd(1);
    int bits = Gpu.subgroupBallot(true);
    boolean elected = Gpu.subgroupElect();
    boolean all = Gpu.subgroupAll(v != 0);
    int smallest = Gpu.subgroupMin(v);
    if (4 * i + 3 < out.length) {
      out[4 * i] = sum;
      out[4 * i + 1] = inclusive + (elected ? 1000 : 0) + (all ? 2000 : 0);
      out[4 * i + 2] = bits;
      out[4 * i + 3] = smallest;
    }
  }

  /**
   * Partitions (NVIDIA's; lavapipe has none): lanes grouped by a value, each group's count, smallest
   * id and largest value, and properties that hold for any subgroup size up to 32.
   */
  @Kernel(workgroup = 64)
  static void partitions(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    int v = i < in.length ? in[i] : 0;
    int lane = Gpu.subgroupInvocationId();
    int partition = Gpu.subgroupPartition(v & 3);
    int wide = Gpu.subgroupPartition((long) (v & 3) << 40);
    int count = Gpu.subgroupPartitionedAdd(1, partition);
    int smallest = Gpu.subgroupPartitionedMin(i, partition);
    float largest = Gpu.subgroupPartitionedMax(0.5f * v, partition);
    int ok = 0;
    ok |= (partition >>> lane & 1) == 1 ? 1 : 0;
    ok |= count == Integer.bitCount(partition) ? 2 : 0;
    ok |= smallest <= i ? 4 : 0;
    ok |= largest >= 0.5f * v ? 8 : 0;
    ok |= wide == partition ? 16 : 0;
    if (i < out.length) {
      out[i] = ok;
    }
  }
}
