package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Gemv}: a workgroup of {@link #LANES} x {@link #ROWS} takes {@link
 * #ROWS} rows of a row-major {@code rows x cols} matrix, the {@link #LANES} invocations along x to
 * a row, launched over a grid {@code LANES} wide and {@code rows} high. Lane {@code j} walks its
 * row in chunks of 32 bytes ({@link #FLOAT_CHUNK} floats or {@link #SHORT_CHUNK} 16-bit elements,
 * read as 16-byte copies where a chunk is whole): chunk {@code t} starts at column {@code (t ·
 * LANES + j) · chunk}, and the lane adds the chunk's products to its partial in column order; the
 * row's 32 partials are then summed as a tree ({@link LaneFolds#sum}). Each product and each sum is
 * rounded to float as Java rounds it, so the order is the results' specification and every device
 * gives the same bits.
 */
final class GemvKernels {
  static final int LANES = LaneFolds.LANES;
  static final int ROWS = LaneFolds.RUNS;
  static final int FLOAT_CHUNK = Tuning.GEMV_CHUNK_BYTES / Float.BYTES;
  static final int SHORT_CHUNK = Tuning.GEMV_CHUNK_BYTES / Short.BYTES;

  private GemvKernels() {}

  /** {@code y[r] = dot(a's row r, x)}, plus {@code y[r]} where {@code accumulate} is not 0. */
  @Kernel(workgroup = {LANES, ROWS})
  static void floats(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial = row < rows ? floatLane(a, x, row * cols, cols, Gpu.localId(0)) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = accumulate != 0 ? y[row] + total : total;
    }
  }

  /** The same with {@code a}'s elements float16 bits ({@code Float.float16ToFloat}). */
  @Kernel(workgroup = {LANES, ROWS})
  static void halves(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial = 0f;
    if (row < rows) {
      int start = row * cols;
      short[] chunk = new short[SHORT_CHUNK];
      float[] xs = new float[SHORT_CHUNK];
      for (int c = Gpu.localId(0) * SHORT_CHUNK; c < cols; c += LANES * SHORT_CHUNK) {
        if (c <= cols - SHORT_CHUNK) {
          System.arraycopy(a, start + c, chunk, 0, SHORT_CHUNK);
          System.arraycopy(x, c, xs, 0, SHORT_CHUNK);
          for (int k = 0; k < SHORT_CHUNK; k++) {
            partial += Float.float16ToFloat(chunk[k]) * xs[k];
          }
        } else {
          for (int k = c; k < cols; k++) {
            partial += Float.float16ToFloat(a[start + k]) * x[k];
          }
        }
      }
    }
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = accumulate != 0 ? y[row] + total : total;
    }
  }

  /** The same with {@code a}'s elements bfloat16 bits: a float's upper 16 bits. */
  @Kernel(workgroup = {LANES, ROWS})
  static void bfloats(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial = 0f;
    if (row < rows) {
      int start = row * cols;
      short[] chunk = new short[SHORT_CHUNK];
      float[] xs = new float[SHORT_CHUNK];
      for (int c = Gpu.localId(0) * SHORT_CHUNK; c < cols; c += LANES * SHORT_CHUNK) {
        if (c <= cols - SHORT_CHUNK) {
          System.arraycopy(a, start + c, chunk, 0, SHORT_CHUNK);
          System.arraycopy(x, c, xs, 0, SHORT_CHUNK);
          for (int k = 0; k < SHORT_CHUNK; k++) {
            partial += Float.intBitsToFloat(chunk[k] << 16) * xs[k];
          }
        } else {
          for (int k = c; k < cols; k++) {
            partial += Float.intBitsToFloat(a[start + k] << 16) * x[k];
          }
        }
      }
    }
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = accumulate != 0 ? y[row] + total : total;
    }
  }

  /**
   * The first of two products over one input, fused with {@link #pairSecond} into one dispatch
   * (group {@code pair}): {@code y = a·x} for {@code firstRows} rows; the workgroups past them only
   * meet the others' barriers.
   */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("pair")
  static void pairFirst(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int cols,
      int firstRows) {
    int row = Gpu.globalId(1);
    float partial =
        row < firstRows ? floatLaneByElements(a, x, row * cols, cols, Gpu.localId(0)) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < firstRows) {
      y[row] = total;
    }
  }

  /** The second product of group {@code pair}: {@code z = b·x} for {@code secondRows} rows. */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("pair")
  static void pairSecond(
      @Buffer(Access.READ) float[] b,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] z,
      int cols,
      int secondRows) {
    int row = Gpu.globalId(1);
    float partial =
        row < secondRows ? floatLaneByElements(b, x, row * cols, cols, Gpu.localId(0)) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < secondRows) {
      z[row] = total;
    }
  }

  /** Lane {@code lane}'s partial of the row of {@code cols} floats at {@code start}. */
  private static float floatLane(float[] a, float[] x, int start, int cols, int lane) {
    float partial = 0f;
    float[] chunk = new float[FLOAT_CHUNK];
    float[] xs = new float[FLOAT_CHUNK];
    for (int c = lane * FLOAT_CHUNK; c < cols; c += LANES * FLOAT_CHUNK) {
      if (c <= cols - FLOAT_CHUNK) {
        System.arraycopy(a, start + c, chunk, 0, FLOAT_CHUNK);
        System.arraycopy(x, c, xs, 0, FLOAT_CHUNK);
        for (int k = 0; k < FLOAT_CHUNK; k++) {
          partial += chunk[k] * xs[k];
        }
      } else {
        for (int k = c; k < cols; k++) {
          partial += a[start + k] * x[k];
        }
      }
    }
    return partial;
  }

  /**
   * {@link #floatLane} element by element, for the arms of group {@code pair}: fusion does not
   * follow copies yet. The same order, so the same bits.
   */
  private static float floatLaneByElements(float[] a, float[] x, int start, int cols, int lane) {
    float partial = 0f;
    for (int c = lane * FLOAT_CHUNK; c < cols; c += LANES * FLOAT_CHUNK) {
      for (int k = c; k < Math.min(c + FLOAT_CHUNK, cols); k++) {
        partial += a[start + k] * x[k];
      }
    }
    return partial;
  }
}
