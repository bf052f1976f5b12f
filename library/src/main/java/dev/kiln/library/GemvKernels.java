package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
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

  /**
   * The first of two products over one input, fused with {@link #pairSecond} into one dispatch
   * (group {@code pair}): {@code y = a·x} for {@code firstRows} rows; the workgroups past them only
   * meet the others' barriers.
   */
  @Kernel(workgroup = WORKGROUP)
  @FuseGroup("pair")
  static void pairFirst(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int cols,
      int firstRows) {
    int row = Gpu.workgroupId(0);
    int width =
        row < firstRows ? cols : 0; // the whole workgroup folds, so that it meets the barriers
    float sum = 0f;
    for (int c = Gpu.localId(0); c < width; c += WORKGROUP) {
      sum += a[row * cols + c] * x[c];
    }
    float total = WorkgroupFolds.sum(sum);
    if (Gpu.localId(0) == 0 && row < firstRows) {
      y[row] = total;
    }
  }

  /** The second product of group {@code pair}: {@code z = b·x} for {@code secondRows} rows. */
  @Kernel(workgroup = WORKGROUP)
  @FuseGroup("pair")
  static void pairSecond(
      @Buffer(Access.READ) float[] b,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] z,
      int cols,
      int secondRows) {
    int row = Gpu.workgroupId(0);
    int width =
        row < secondRows ? cols : 0; // the whole workgroup folds, so that it meets the barriers
    float sum = 0f;
    for (int c = Gpu.localId(0); c < width; c += WORKGROUP) {
      sum += b[row * cols + c] * x[c];
    }
    float total = WorkgroupFolds.sum(sum);
    if (Gpu.localId(0) == 0 && row < secondRows) {
      z[row] = total;
    }
  }
}
