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
    ok |= Gpu.subgroupAny(true) && !Gpu.subgroupAll(false) ? 1024 : 0;
    ok |= Gpu.subgroupAll(v == v) && Gpu.subgroupAny(v <= Gpu.subgroupMax(v)) ? 2048 : 0;
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
}
