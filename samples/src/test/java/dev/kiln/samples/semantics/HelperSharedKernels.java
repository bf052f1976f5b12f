package dev.kiln.samples.semantics;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Workgroup memory a helper declares, as TornadoVM kernels allocate it in the helper they call
 * ({@link HelperSharedTest}): each call has an array of its own.
 */
final class HelperSharedKernels {
  static final int GROUP = 64;

  private HelperSharedKernels() {}

  /** The sum of {@code value} over the workgroup, in a workgroup array of this call's own. */
  private static float blockSum(float value) {
    float[] partial = Gpu.sharedFloats(GROUP);
    int l = Gpu.localId(0);
    partial[l] = value;
    Gpu.barrier();
    for (int s = GROUP / 2; s > 0; s >>= 1) {
      if (l < s) {
        partial[l] += partial[l + s];
      }
      Gpu.barrier();
    }
    return partial[0];
  }

  /** Each workgroup's sum and sum of squares, through two calls of the helper. */
  @Kernel(workgroup = {GROUP})
  static void sumAndSquares(@Buffer(Access.READ) float[] in, float[] sums) {
    int g = Gpu.globalId(0);
    float v = g < in.length ? in[g] : 0f;
    float total = blockSum(v);
    float squares = blockSum(v * v);
    if (Gpu.localId(0) == 0) {
      sums[2 * Gpu.workgroupId(0)] = total;
      sums[2 * Gpu.workgroupId(0) + 1] = squares;
    }
  }

  /** The same through a helper of another class, linked at each call with arrays of its own. */
  @Kernel(workgroup = {GROUP})
  static void acrossClasses(@Buffer(Access.READ) float[] in, float[] sums) {
    int g = Gpu.globalId(0);
    float v = g < in.length ? in[g] : 0f;
    float total = WorkgroupSums.sum(v);
    float squares = WorkgroupSums.sum(v * v);
    if (Gpu.localId(0) == 0) {
      sums[2 * Gpu.workgroupId(0)] = total;
      sums[2 * Gpu.workgroupId(0) + 1] = squares;
    }
  }
}
