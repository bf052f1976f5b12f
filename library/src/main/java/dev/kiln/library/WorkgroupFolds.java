package dev.kiln.library;

import dev.kiln.Gpu;

/**
 * Folds of one value per invocation over a workgroup of {@link #SIZE}, as a tree in workgroup
 * memory: {@code p[l] ∘= p[l + s]} for {@code s = 128, 64, ..., 1}, a barrier after each step;
 * every invocation gets the result. Each call (kernels inline them) has an array of its own.
 */
final class WorkgroupFolds {
  /** The workgroup size the library's row kernels use. */
  static final int SIZE = Tuning.ROW_WORKGROUP;

  private WorkgroupFolds() {}

  /** The sum of {@code value} over the workgroup. */
  static float sum(float value) {
    float[] partial = Gpu.sharedFloats(SIZE);
    int l = Gpu.localId(0);
    partial[l] = value;
    Gpu.barrier();
    for (int s = SIZE / 2; s > 0; s >>= 1) {
      if (l < s) {
        partial[l] += partial[l + s];
      }
      Gpu.barrier();
    }
    return partial[0];
  }

  /** The largest {@code value} over the workgroup, by {@code Math.max} (NaN if any is). */
  static float max(float value) {
    float[] partial = Gpu.sharedFloats(SIZE);
    int l = Gpu.localId(0);
    partial[l] = value;
    Gpu.barrier();
    for (int s = SIZE / 2; s > 0; s >>= 1) {
      if (l < s) {
        partial[l] = Math.max(partial[l], partial[l + s]);
      }
      Gpu.barrier();
    }
    return partial[0];
  }
}
