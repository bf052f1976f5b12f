package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Gemv}: one workgroup of {@link #WORKGROUP} invocations per row of a
 * row-major {@code rows x cols} matrix; invocation {@code l} folds the products of columns {@code
 * l, l + 256, ...} in order, and the workgroup sums the 256 partials as a tree ({@link
 * RowKernels}'s order). A product of two floats is exact in the partial's float arithmetic only as
 * Java rounds it: each product and each sum is rounded to float, as in Java.
 */
final class GemvKernels {
  static final int WORKGROUP = WorkgroupFolds.SIZE;

  private GemvKernels() {}

  /** {@code y[r] = dot(a's row r, x)}, plus {@code y[r]} where {@code accumulate} is not 0. */
  @Kernel(workgroup = WORKGROUP)
  static void floats(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int cols,
      int accumulate) {
    int row = Gpu.workgroupId(0);
    int start = row * cols;
    float sum = 0f;
    for (int c = Gpu.localId(0); c < cols; c += WORKGROUP) {
      sum += a[start + c] * x[c];
    }
    float total = WorkgroupFolds.sum(sum);
    if (Gpu.localId(0) == 0) {
      y[row] = accumulate != 0 ? y[row] + total : total;
    }
  }

  /** The same with {@code a}'s elements float16 bits ({@code Float.float16ToFloat}). */
  @Kernel(workgroup = WORKGROUP)
  static void halves(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int cols,
      int accumulate) {
    int row = Gpu.workgroupId(0);
    int start = row * cols;
    float sum = 0f;
    for (int c = Gpu.localId(0); c < cols; c += WORKGROUP) {
      sum += Float.float16ToFloat(a[start + c]) * x[c];
    }
    float total = WorkgroupFolds.sum(sum);
    if (Gpu.localId(0) == 0) {
      y[row] = accumulate != 0 ? y[row] + total : total;
    }
  }

  /** The same with {@code a}'s elements bfloat16 bits: a float's upper 16 bits. */
  @Kernel(workgroup = WORKGROUP)
  static void bfloats(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int cols,
      int accumulate) {
    int row = Gpu.workgroupId(0);
    int start = row * cols;
    float sum = 0f;
    for (int c = Gpu.localId(0); c < cols; c += WORKGROUP) {
      sum += Float.intBitsToFloat(a[start + c] << 16) * x[c];
    }
    float total = WorkgroupFolds.sum(sum);
    if (Gpu.localId(0) == 0) {
      y[row] = accumulate != 0 ? y[row] + total : total;
    }
  }
}
