package dev.kiln.samples.semantics;

import dev.kiln.Gpu;

/** A helper of another class that declares workgroup memory ({@link HelperSharedKernels#acrossClasses}). */
final class WorkgroupSums {
  private WorkgroupSums() {}

  /** The sum of {@code value} over a workgroup of {@link HelperSharedKernels#GROUP}, in an array of this call's own. */
  static float sum(float value) {
    float[] partial = Gpu.sharedFloats(HelperSharedKernels.GROUP);
    int l = Gpu.localId(0);
    partial[l] = value;
    Gpu.barrier();
    for (int s = HelperSharedKernels.GROUP / 2; s > 0; s >>= 1) {
      if (l < s) {
        partial[l] += partial[l + s];
      }
      Gpu.barrier();
    }
    return partial[0];
  }
}
