package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Kernels beyond common device limits, for {@link LimitsTest}. */
final class LimitKernels {
  private LimitKernels() {}

  /** 1 MiB of workgroup memory: beyond lavapipe's 32 KiB and the H200's 48 KiB. */
  @Kernel
  static void hugeShared(float[] out) {
    float[] tile = Gpu.sharedFloats(1 << 18);
    int i = Gpu.globalId(0);
    tile[Gpu.localId(0)] = i;
    Gpu.barrier();
    if (i < out.length) {
      out[i] = tile[Gpu.localId(0)];
    }
  }
}
