package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.ShortArray;

/**
 * Matrix-vector products {@code y = A·x} (or {@code y += A·x}) of a row-major {@code rows x cols}
 * matrix, whose elements are floats, float16 bits ({@code Float.float16ToFloat}) or bfloat16 bits
 * (a float's upper 16 bits), by a float vector: the shape LLM decoding spends its time in.
 *
 * <p>Order and precision: {@code y[r]} is the sum of the products {@code A[r, c] * x[c]}, each
 * rounded to float as in Java. Row {@code r} has 32 lanes; lane {@code j} takes the chunks (of 8
 * floats, or of 8 16-bit elements) that start at columns {@code (32t + j) · chunk}, {@code t = 0,
 * 1, ...}, adding their products in column order; the 32 partials are then summed as a tree ({@code
 * p[j] += p[j + s]}, {@code s = 16, 8, 4, 2, 1}), and {@code y[r]} added last where the call
 * accumulates. That order is the same on every device and on the CPU backend, so are the bits; it
 * differs from a left-to-right loop by the reassociation alone.
 *
 * <p>The batch forms that take offsets and a row distance ({@code lda}) work on parts of arrays, as
 * BLAS does: one head's keys in a cache of heads, a slice of a vector. {@code pair} runs two
 * products over one input in one dispatch (two kernels of one {@code @FuseGroup}); {@code gated}
 * runs a gated linear unit, SiLU of one product times the other, in one dispatch. {@code
 * accumulateForNorm} with {@code normedProduct} or {@code gatedNormedProduct} split RMSNorm across
 * a residual's product and the product after it, so that the norm takes no launch.
 *
 * <pre>{@code
 * Gemv.floats(device, weights, 4096, 4096, x, y, false); // y = W·x
 * }</pre>
 */
public final class Gemv {
  private Gemv() {}

  /**
   * {@code y[r] = Σ_c a[r * cols + c] * x[c]}, plus {@code y[r]} where {@code accumulate}.
   *
   * @param device where it runs
   * @param a the matrix
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void floats(
      Device device, float[] a, int rows, int cols, float[] x, float[] y, boolean accumulate) {
    check(a.length, rows, cols, x.length, y.length);
    if (rows > 0) {
      GemvKernelsKernels.floats(
          device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
    }
  }

  /**
   * {@link #floats(Device, float[], int, int, float[], float[], boolean)} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param a the matrix
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void floats(
      Device device,
      FloatArray a,
      int rows,
      int cols,
      FloatArray x,
      FloatArray y,
      boolean accumulate) {
    check(a.length(), rows, cols, x.length(), y.length());
    if (rows > 0) {
      GemvKernelsKernels.floats(
          device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
    }
  }

  /**
   * {@link #floats(Device, float[], int, int, float[], float[], boolean)} in a batch.
   *
   * @param batch the batch that records it
   * @param a the matrix
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void floats(
      Batch batch,
      FloatArray a,
      int rows,
      int cols,
      FloatArray x,
      FloatArray y,
      boolean accumulate) {
    check(a.length(), rows, cols, x.length(), y.length());
    if (rows > 0) {
      GemvKernelsKernels.floats(
          batch, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
    }
  }

  /**
   * The product with {@code a}'s elements float16 bits.
   *
   * @param device where it runs
   * @param a the matrix, float16 bits
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void halves(
      Device device, short[] a, int rows, int cols, float[] x, float[] y, boolean accumulate) {
    check(a.length, rows, cols, x.length, y.length);
    if (rows > 0) {
      if (Tuning.foldsInSubgroups(device)) {
        GemvKernelsKernels.halvesInSubgroups(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      } else {
        GemvKernelsKernels.halves(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      }
    }
  }

  /**
   * {@link #halves(Device, short[], int, int, float[], float[], boolean)} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param a the matrix, float16 bits
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void halves(
      Device device,
      ShortArray a,
      int rows,
      int cols,
      FloatArray x,
      FloatArray y,
      boolean accumulate) {
    check(a.length(), rows, cols, x.length(), y.length());
    if (rows > 0) {
      if (Tuning.foldsInSubgroups(device)) {
        GemvKernelsKernels.halvesInSubgroups(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      } else {
        GemvKernelsKernels.halves(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      }
    }
  }

  /**
   * {@link #halves(Device, short[], int, int, float[], float[], boolean)} in a batch.
   *
   * @param batch the batch that records it
   * @param a the matrix, float16 bits
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void halves(
      Batch batch,
      ShortArray a,
      int rows,
      int cols,
      FloatArray x,
      FloatArray y,
      boolean accumulate) {
    check(a.length(), rows, cols, x.length(), y.length());
    if (rows > 0) {
      if (Tuning.foldsInSubgroups(a.device())) {
        GemvKernelsKernels.halvesInSubgroups(
            batch, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      } else {
        GemvKernelsKernels.halves(
            batch, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      }
    }
  }

  /**
   * The product with {@code a}'s elements bfloat16 bits.
   *
   * @param device where it runs
   * @param a the matrix, bfloat16 bits
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void bfloats(
      Device device, short[] a, int rows, int cols, float[] x, float[] y, boolean accumulate) {
    check(a.length, rows, cols, x.length, y.length);
    if (rows > 0) {
      if (Tuning.foldsInSubgroups(device)) {
        GemvKernelsKernels.bfloatsInSubgroups(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      } else {
        GemvKernelsKernels.bfloats(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      }
    }
  }

  /**
   * {@link #bfloats(Device, short[], int, int, float[], float[], boolean)} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param a the matrix, bfloat16 bits
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void bfloats(
      Device device,
      ShortArray a,
      int rows,
      int cols,
      FloatArray x,
      FloatArray y,
      boolean accumulate) {
    check(a.length(), rows, cols, x.length(), y.length());
    if (rows > 0) {
      if (Tuning.foldsInSubgroups(device)) {
        GemvKernelsKernels.bfloatsInSubgroups(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      } else {
        GemvKernelsKernels.bfloats(
            device, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      }
    }
  }

  /**
   * {@link #bfloats(Device, short[], int, int, float[], float[], boolean)} in a batch.
   *
   * @param batch the batch that records it
   * @param a the matrix, bfloat16 bits
   * @param rows its rows
   * @param cols its columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void bfloats(
      Batch batch,
      ShortArray a,
      int rows,
      int cols,
      FloatArray x,
      FloatArray y,
      boolean accumulate) {
    check(a.length(), rows, cols, x.length(), y.length());
    if (rows > 0) {
      if (Tuning.foldsInSubgroups(a.device())) {
        GemvKernelsKernels.bfloatsInSubgroups(
            batch, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      } else {
        GemvKernelsKernels.bfloats(
            batch, grid(rows), a, x, y, rows, cols, 0, cols, 0, 0, accumulate ? 1 : 0);
      }
    }
  }

  /**
   * {@code y[offsetY + r] = Σ_c a[offsetA + r * lda + c] * x[offsetX + c]} (plus {@code y[offsetY +
   * r]} where {@code accumulate}), {@code a}'s elements floats, in a batch: parts of arrays, as
   * BLAS takes them (one head's keys in a cache of heads, say), each product in the order of the
   * whole-array form.
   *
   * @param batch the batch that records it
   * @param a holds the matrix
   * @param offsetA where its first row starts
   * @param lda how far apart its rows start, at least {@code cols}
   * @param rows its rows
   * @param cols its columns
   * @param x holds the vector
   * @param offsetX where it starts
   * @param y holds the result
   * @param offsetY where it starts
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void floats(
      Batch batch,
      FloatArray a,
      int offsetA,
      int lda,
      int rows,
      int cols,
      FloatArray x,
      int offsetX,
      FloatArray y,
      int offsetY,
      boolean accumulate) {
    checkStrided(a.length(), offsetA, lda, rows, cols, x.length(), offsetX, y.length(), offsetY);
    if (rows > 0) {
      GemvKernelsKernels.floats(
          batch,
          grid(rows),
          a,
          x,
          y,
          rows,
          cols,
          offsetA,
          lda,
          offsetX,
          offsetY,
          accumulate ? 1 : 0);
    }
  }

  /**
   * {@code y[offsetY + r] = Σ_c a[offsetA + r * lda + c] * x[offsetX + c]} (plus {@code y[offsetY +
   * r]} where {@code accumulate}), {@code a}'s elements float16 bits, in a batch: parts of arrays,
   * as BLAS takes them (one head's keys in a cache of heads, say), each product in the order of the
   * whole-array form.
   *
   * @param batch the batch that records it
   * @param a holds the matrix
   * @param offsetA where its first row starts
   * @param lda how far apart its rows start, at least {@code cols}
   * @param rows its rows
   * @param cols its columns
   * @param x holds the vector
   * @param offsetX where it starts
   * @param y holds the result
   * @param offsetY where it starts
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void halves(
      Batch batch,
      ShortArray a,
      int offsetA,
      int lda,
      int rows,
      int cols,
      FloatArray x,
      int offsetX,
      FloatArray y,
      int offsetY,
      boolean accumulate) {
    checkStrided(a.length(), offsetA, lda, rows, cols, x.length(), offsetX, y.length(), offsetY);
    if (rows > 0 && Tuning.foldsInSubgroups(a.device())) {
      GemvKernelsKernels.halvesInSubgroups(
          batch,
          grid(rows),
          a,
          x,
          y,
          rows,
          cols,
          offsetA,
          lda,
          offsetX,
          offsetY,
          accumulate ? 1 : 0);
    } else if (rows > 0) {
      GemvKernelsKernels.halves(
          batch,
          grid(rows),
          a,
          x,
          y,
          rows,
          cols,
          offsetA,
          lda,
          offsetX,
          offsetY,
          accumulate ? 1 : 0);
    }
  }

  /**
   * {@code y[offsetY + r] = Σ_c a[offsetA + r * lda + c] * x[offsetX + c]} (plus {@code y[offsetY +
   * r]} where {@code accumulate}), {@code a}'s elements bfloat16 bits, in a batch: parts of arrays,
   * as BLAS takes them (one head's keys in a cache of heads, say), each product in the order of the
   * whole-array form.
   *
   * @param batch the batch that records it
   * @param a holds the matrix
   * @param offsetA where its first row starts
   * @param lda how far apart its rows start, at least {@code cols}
   * @param rows its rows
   * @param cols its columns
   * @param x holds the vector
   * @param offsetX where it starts
   * @param y holds the result
   * @param offsetY where it starts
   * @param accumulate whether to add to {@code y} rather than overwrite it
   */
  public static void bfloats(
      Batch batch,
      ShortArray a,
      int offsetA,
      int lda,
      int rows,
      int cols,
      FloatArray x,
      int offsetX,
      FloatArray y,
      int offsetY,
      boolean accumulate) {
    checkStrided(a.length(), offsetA, lda, rows, cols, x.length(), offsetX, y.length(), offsetY);
    if (rows > 0 && Tuning.foldsInSubgroups(a.device())) {
      GemvKernelsKernels.bfloatsInSubgroups(
          batch,
          grid(rows),
          a,
          x,
          y,
          rows,
          cols,
          offsetA,
          lda,
          offsetX,
          offsetY,
          accumulate ? 1 : 0);
    } else if (rows > 0) {
      GemvKernelsKernels.bfloats(
          batch,
          grid(rows),
          a,
          x,
          y,
          rows,
          cols,
          offsetA,
          lda,
          offsetX,
          offsetY,
          accumulate ? 1 : 0);
    }
  }

  /**
   * Two products over one input in one dispatch (sibling fusion: the two kernels are fused at
   * compile time), as a transformer's gate and up projections are: {@code y = a·x} and {@code z =
   * b·x}, {@code a} of {@code firstRows} rows and {@code b} of {@code secondRows}, both of {@code
   * cols} columns, each element as {@link #floats} computes it.
   *
   * @param device where it runs
   * @param a the first matrix
   * @param firstRows its rows
   * @param b the second matrix
   * @param secondRows its rows
   * @param cols the columns of both
   * @param x at least {@code cols} elements
   * @param y at least {@code firstRows} elements
   * @param z at least {@code secondRows} elements
   */
  public static void pair(
      Device device,
      float[] a,
      int firstRows,
      float[] b,
      int secondRows,
      int cols,
      float[] x,
      float[] y,
      float[] z) {
    check(a.length, firstRows, cols, x.length, y.length);
    check(b.length, secondRows, cols, x.length, z.length);
    int rows = Math.max(firstRows, secondRows);
    if (rows > 0) {
      GemvKernelsKernels.pair(device, grid(rows), a, x, y, cols, firstRows, b, z, secondRows);
    }
  }

  /**
   * {@link #pair(Device, float[], int, float[], int, int, float[], float[], float[])} in a batch,
   * on device arrays.
   *
   * @param batch the batch that records it
   * @param a the first matrix
   * @param firstRows its rows
   * @param b the second matrix
   * @param secondRows its rows
   * @param cols the columns of both
   * @param x at least {@code cols} elements
   * @param y at least {@code firstRows} elements
   * @param z at least {@code secondRows} elements
   */
  public static void pair(
      Batch batch,
      FloatArray a,
      int firstRows,
      FloatArray b,
      int secondRows,
      int cols,
      FloatArray x,
      FloatArray y,
      FloatArray z) {
    check(a.length(), firstRows, cols, x.length(), y.length());
    check(b.length(), secondRows, cols, x.length(), z.length());
    int rows = Math.max(firstRows, secondRows);
    if (rows > 0) {
      GemvKernelsKernels.pair(batch, grid(rows), a, x, y, cols, firstRows, b, z, secondRows);
    }
  }

  /**
   * {@link #pair(Batch, FloatArray, int, FloatArray, int, int, FloatArray, FloatArray, FloatArray)}
   * of two matrices of 16-bit elements, as {@link #halves} or {@link #bfloats} computes each
   * product: a transformer's gate and up projections in one dispatch.
   *
   * @param batch the batch that records it
   * @param a the first matrix
   * @param firstRows its rows
   * @param b the second matrix
   * @param secondRows its rows
   * @param cols the columns of both
   * @param x at least {@code cols} elements
   * @param y at least {@code firstRows} elements
   * @param z at least {@code secondRows} elements
   * @param bfloat whether the elements are bfloat16 bits (else float16)
   */
  public static void pair(
      Batch batch,
      ShortArray a,
      int firstRows,
      ShortArray b,
      int secondRows,
      int cols,
      FloatArray x,
      FloatArray y,
      FloatArray z,
      boolean bfloat) {
    check(a.length(), firstRows, cols, x.length(), y.length());
    check(b.length(), secondRows, cols, x.length(), z.length());
    int rows = Math.max(firstRows, secondRows);
    if (rows > 0 && bfloat) {
      GemvKernelsKernels.bfloatPair(batch, grid(rows), a, x, y, cols, firstRows, b, z, secondRows);
    } else if (rows > 0) {
      GemvKernelsKernels.halfPair(batch, grid(rows), a, x, y, cols, firstRows, b, z, secondRows);
    }
  }

  /**
   * A gated linear unit (SwiGLU, a transformer's feed-forward input) in one dispatch: {@code y[r] =
   * silu(g) · u}, where {@code g} is the product of row {@code r} of {@code a} with {@code x} and
   * {@code u} that of row {@code rows + r} ({@code a} holds the gate's rows, then the up
   * projection's), each as {@link #halves} or {@link #bfloats} computes it, and {@code silu(v) = v
   * / (1 + exp(-v))} with the device's {@code exp} (a few ulps, not Java's bits), as {@link Gemm}'s
   * SiLU epilogue.
   *
   * @param device where it runs
   * @param a {@code 2 · rows} rows of {@code cols} 16-bit elements
   * @param rows the rows of {@code y}
   * @param cols the columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param bfloat whether the elements are bfloat16 bits (else float16)
   */
  public static void gated(
      Device device, short[] a, int rows, int cols, float[] x, float[] y, boolean bfloat) {
    checkGated(a.length, rows, cols, x.length, y.length);
    if (rows > 0 && bfloat) {
      GemvKernelsKernels.gatedBfloats(device, grid(rows), a, x, y, rows, cols);
    } else if (rows > 0) {
      GemvKernelsKernels.gatedHalves(device, grid(rows), a, x, y, rows, cols);
    }
  }

  /**
   * {@link #gated(Device, short[], int, int, float[], float[], boolean)} in a batch, on device
   * arrays.
   *
   * @param batch the batch that records it
   * @param a {@code 2 · rows} rows of {@code cols} 16-bit elements
   * @param rows the rows of {@code y}
   * @param cols the columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements
   * @param bfloat whether the elements are bfloat16 bits (else float16)
   */
  public static void gated(
      Batch batch, ShortArray a, int rows, int cols, FloatArray x, FloatArray y, boolean bfloat) {
    checkGated(a.length(), rows, cols, x.length(), y.length());
    if (rows > 0 && bfloat) {
      GemvKernelsKernels.gatedBfloats(batch, grid(rows), a, x, y, rows, cols);
    } else if (rows > 0) {
      GemvKernelsKernels.gatedHalves(batch, grid(rows), a, x, y, rows, cols);
    }
  }

  /** The rows of each sum of squares {@link #accumulateForNorm} writes. */
  public static final int NORM_ROWS = GemvKernels.ROWS;

  /**
   * The elements of {@link #accumulateForNorm}'s {@code squares} for {@code rows} rows: one per
   * {@link #NORM_ROWS} rows.
   *
   * @param rows the rows of the product
   * @return the parts
   */
  public static int normParts(int rows) {
    return (rows + NORM_ROWS - 1) / NORM_ROWS;
  }

  /**
   * A residual's product with RMSNorm split across it and the product that reads its result ({@link
   * #normedProduct}, {@link #gatedNormedProduct}), so that the norm takes no launch of its own:
   * {@code y[r] += d}, {@code d} the product of row {@code r} of {@code a} with {@code x} as {@link
   * #halves} or {@link #bfloats} computes it; then the norm's pieces of the new {@code y}: {@code
   * normed[r] = y[r] · weight[r]}, and {@code squares[g]} the sum of {@code y[r]²} over rows {@code
   * r} from {@code 8g} to {@code 8g + 7} in order ({@link #NORM_ROWS} rows each, {@link #normParts}
   * of them).
   *
   * @param batch the batch that records it
   * @param a {@code rows} rows of {@code cols} 16-bit elements
   * @param rows the rows of {@code y}
   * @param cols the columns
   * @param x at least {@code cols} elements
   * @param y at least {@code rows} elements: the residual, added to
   * @param weight at least {@code rows} elements: the norm's
   * @param normed at least {@code rows} elements: {@code y ⊙ weight}
   * @param squares at least {@code normParts(rows)} elements
   * @param bfloat whether the elements are bfloat16 bits (else float16)
   */
  public static void accumulateForNorm(
      Batch batch,
      ShortArray a,
      int rows,
      int cols,
      FloatArray x,
      FloatArray y,
      FloatArray weight,
      FloatArray normed,
      FloatArray squares,
      boolean bfloat) {
    check(a.length(), rows, cols, x.length(), y.length());
    Shapes.vector("weight", weight.length(), rows);
    Shapes.vector("normed", normed.length(), rows);
    Shapes.vector("squares", squares.length(), normParts(rows));
    if (rows > 0 && inSubgroups(a.device(), cols)) {
      if (bfloat) {
        GemvKernelsKernels.accumulateForNormBfloatsInSubgroups(
            batch, grid(rows), a, x, y, weight, normed, squares, rows, octets(cols));
      } else {
        GemvKernelsKernels.accumulateForNormInSubgroups(
            batch, grid(rows), a, x, y, weight, normed, squares, rows, octets(cols));
      }
    } else if (rows > 0) {
      GemvKernelsKernels.accumulateForNorm(
          batch, grid(rows), a, x, y, weight, normed, squares, rows, cols, bfloat ? 1 : 0);
    }
  }

  /**
   * The product of RMSNorm of a vector, from the pieces {@link #accumulateForNorm} left: {@code
   * y[r] = d · s}, {@code d} the product of row {@code r} of {@code a} with {@code normed} as
   * {@link #halves} or {@link #bfloats} computes it, {@code s = 1 / sqrt(q / cols + eps)}, {@code
   * q} the sum of {@code squares[0 .. normParts(cols))} (lane {@code j} of 32 adding those at
   * {@code j, j + 32, ...} in order, the lanes' sums then folded as a row's products are) and
   * {@code sqrt} the device's (Vulkan's bound, not Java's bits). It equals {@code A · rmsNorm(v)}
   * ({@link Rows#rmsNorm}) up to the rounding of the order: the scale multiplies each sum once
   * instead of each element.
   *
   * @param batch the batch that records it
   * @param a {@code rows} rows of {@code cols} 16-bit elements
   * @param rows the rows of {@code y}
   * @param cols the columns
   * @param normed at least {@code cols} elements: the vector times the norm's weights
   * @param squares at least {@code normParts(cols)} elements: the vector's squares' sums
   * @param eps added to the mean square
   * @param y at least {@code rows} elements
   * @param bfloat whether the elements are bfloat16 bits (else float16)
   */
  public static void normedProduct(
      Batch batch,
      ShortArray a,
      int rows,
      int cols,
      FloatArray normed,
      FloatArray squares,
      float eps,
      FloatArray y,
      boolean bfloat) {
    check(a.length(), rows, cols, normed.length(), y.length());
    int parts = normParts(cols);
    Shapes.vector("squares", squares.length(), parts);
    if (rows > 0 && inSubgroups(a.device(), cols)) {
      if (bfloat) {
        GemvKernelsKernels.normedProductBfloatsInSubgroups(
            batch, grid(rows), a, normed, squares, y, rows, octets(cols), parts, eps);
      } else {
        GemvKernelsKernels.normedProductInSubgroups(
            batch, grid(rows), a, normed, squares, y, rows, octets(cols), parts, eps);
      }
    } else if (rows > 0) {
      GemvKernelsKernels.normedProduct(
          batch, grid(rows), a, normed, squares, y, rows, cols, parts, eps, bfloat ? 1 : 0);
    }
  }

  /**
   * {@link #gated} of RMSNorm of a vector, from the pieces {@link #accumulateForNorm} left: {@code
   * y[r] = silu(g · s) · (u · s)}, {@code g} and {@code u} the products of rows {@code r} and
   * {@code rows + r} of {@code a} and {@code s} the norm's scale, each as {@link #normedProduct}
   * computes them; SiLU as {@link #gated}'s.
   *
   * @param batch the batch that records it
   * @param a {@code 2 · rows} rows of {@code cols} 16-bit elements
   * @param rows the rows of {@code y}
   * @param cols the columns
   * @param normed at least {@code cols} elements: the vector times the norm's weights
   * @param squares at least {@code normParts(cols)} elements: the vector's squares' sums
   * @param eps added to the mean square
   * @param y at least {@code rows} elements
   * @param bfloat whether the elements are bfloat16 bits (else float16)
   */
  public static void gatedNormedProduct(
      Batch batch,
      ShortArray a,
      int rows,
      int cols,
      FloatArray normed,
      FloatArray squares,
      float eps,
      FloatArray y,
      boolean bfloat) {
    checkGated(a.length(), rows, cols, normed.length(), y.length());
    int parts = normParts(cols);
    Shapes.vector("squares", squares.length(), parts);
    if (rows > 0 && inSubgroups(a.device(), cols)) {
      if (bfloat) {
        GemvKernelsKernels.gatedNormedProductBfloatsInSubgroups(
            batch, grid(rows), a, normed, squares, y, rows, octets(cols), parts, eps);
      } else {
        GemvKernelsKernels.gatedNormedProductInSubgroups(
            batch, grid(rows), a, normed, squares, y, rows, octets(cols), parts, eps);
      }
    } else if (rows > 0) {
      GemvKernelsKernels.gatedNormedProduct(
          batch, grid(rows), a, normed, squares, y, rows, cols, parts, eps, bfloat ? 1 : 0);
    }
  }

  /**
   * Whether the norm-split products take their forms that fold in the subgroup: on a device whose
   * subgroups are a row's lanes, for rows a multiple of {@link GemvKernels#QUAD_SHORTS} long (the
   * forms' copies assume it; the others take any length, with the same bits).
   */
  private static boolean inSubgroups(Device device, int cols) {
    return Tuning.foldsInSubgroups(device) && cols % GemvKernels.QUAD_SHORTS == 0;
  }

  /** Rows' length as the subgroup forms take it: in 16-byte copies of 16-bit elements. */
  private static int octets(int cols) {
    return cols / GemvKernels.QUAD_SHORTS;
  }

  /** The grid for {@code rows} rows: {@link GemvKernels#LANES} wide, a row of it per row. */
  private static Grid grid(int rows) {
    return Grid.of(GemvKernels.LANES, rows);
  }

  private static void check(int length, int rows, int cols, int xLength, int yLength) {
    Shapes.matrix("a", length, rows, cols);
    Shapes.vector("x", xLength, cols);
    Shapes.vector("y", yLength, rows);
  }

  /** {@link #gated}'s checks: {@code a} holds {@code 2 · rows} rows. */
  private static void checkGated(int length, int rows, int cols, int xLength, int yLength) {
    Shapes.matrix(
        "a", length, rows < 0 ? rows : (int) Math.min(2L * rows, Integer.MAX_VALUE), cols);
    Shapes.vector("x", xLength, cols);
    Shapes.vector("y", yLength, rows);
  }

  /**
   * The strided forms' checks: each part of an array within it, {@code a}'s rows not overlapping.
   */
  private static void checkStrided(
      int aLength,
      int offsetA,
      int lda,
      int rows,
      int cols,
      int xLength,
      int offsetX,
      int yLength,
      int offsetY) {
    Shapes.strided("a", aLength, offsetA, rows, cols, lda);
    Shapes.strided("x", xLength, offsetX, 1, cols, cols);
    Shapes.strided("y", yLength, offsetY, 1, rows, rows);
  }
}
