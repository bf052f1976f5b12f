package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;

/**
 * Reductions and normalizations over the rows of a row-major {@code rows x cols} float matrix:
 * element {@code (r, c)} at {@code r * cols + c}. Each call takes Java arrays on a {@link Device}
 * (copied there and back as every launch does), or device arrays in a {@link Batch}.
 *
 * <p>Order and precision: within a row, invocation {@code l} of 256 folds columns {@code l, l +
 * 256, ...} in order, and the 256 partials are combined as a tree ({@code p[l] ∘= p[l + 128]}, then
 * 64, ..., 1). Sums and maxima are computed in that order with Java's float arithmetic, so they are
 * the same bits on every device and the CPU backend; they differ from a left-to-right loop by the
 * reassociation alone (a bound of {@code cols · ulp} of the sum of magnitudes). {@code softmax},
 * {@code rmsNorm} and {@code layerNorm} use {@code Gpu.exp} and {@code Gpu.sqrt}, the device's: a
 * few ulps, not Java's bits.
 *
 * <pre>{@code
 * float[] logits = ...; // 4 rows of 1000
 * float[] probabilities = new float[logits.length];
 * Rows.softmax(device, logits, 4, 1000, probabilities);
 * }</pre>
 */
public final class Rows {
  private Rows() {}

  /**
   * {@code out[r] = Σ_c matrix[r * cols + c]}, 0 for an empty row.
   *
   * @param device where it runs
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   */
  public static void sums(Device device, float[] matrix, int rows, int cols, float[] out) {
    check("matrix", matrix.length, rows, cols, out.length, rows);
    if (rows > 0) {
      RowKernelsKernels.sums(device, Shapes.workgroupPerRow(rows), matrix, out, cols);
    }
  }

  /**
   * {@link #sums(Device, float[], int, int, float[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   */
  public static void sums(Device device, FloatArray matrix, int rows, int cols, FloatArray out) {
    check("matrix", matrix.length(), rows, cols, out.length(), rows);
    if (rows > 0) {
      RowKernelsKernels.sums(device, Shapes.workgroupPerRow(rows), matrix, out, cols);
    }
  }

  /**
   * {@link #sums(Device, float[], int, int, float[])} in a batch.
   *
   * @param batch the batch that records it
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   */
  public static void sums(Batch batch, FloatArray matrix, int rows, int cols, FloatArray out) {
    check("matrix", matrix.length(), rows, cols, out.length(), rows);
    if (rows > 0) {
      RowKernelsKernels.sums(batch, Shapes.workgroupPerRow(rows), matrix, out, cols);
    }
  }

  /**
   * {@code out[r]}: the largest element of row {@code r} as {@code Math.max} folds them (NaN if any
   * is; -0.0 below 0.0); {@code Float.NEGATIVE_INFINITY} for an empty row.
   *
   * @param device where it runs
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   */
  public static void maxima(Device device, float[] matrix, int rows, int cols, float[] out) {
    check("matrix", matrix.length, rows, cols, out.length, rows);
    if (rows > 0) {
      RowKernelsKernels.maxima(device, Shapes.workgroupPerRow(rows), matrix, out, cols);
    }
  }

  /**
   * {@code out[r]}: the index in row {@code r} of its first largest element in {@code
   * Float.compare}'s order (NaN above every number, -0.0 below 0.0), -1 for an empty row.
   *
   * @param device where it runs
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   */
  public static void argmax(Device device, float[] matrix, int rows, int cols, int[] out) {
    check("matrix", matrix.length, rows, cols, out.length, rows);
    if (rows > 0) {
      RowKernelsKernels.argmax(device, Shapes.workgroupPerRow(rows), matrix, out, cols);
    }
  }

  /**
   * {@link #argmax(Device, float[], int, int, int[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   */
  public static void argmax(Device device, FloatArray matrix, int rows, int cols, IntArray out) {
    check("matrix", matrix.length(), rows, cols, out.length(), rows);
    if (rows > 0) {
      RowKernelsKernels.argmax(device, Shapes.workgroupPerRow(rows), matrix, out, cols);
    }
  }

  /**
   * {@link #argmax(Device, float[], int, int, int[])} in a batch.
   *
   * @param batch the batch that records it
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   */
  public static void argmax(Batch batch, FloatArray matrix, int rows, int cols, IntArray out) {
    check("matrix", matrix.length(), rows, cols, out.length(), rows);
    if (rows > 0) {
      RowKernelsKernels.argmax(batch, Shapes.workgroupPerRow(rows), matrix, out, cols);
    }
  }

  /**
   * Each row's softmax: {@code out[r, c] = Gpu.exp(in[r, c] - max_r) / Σ_c Gpu.exp(in[r, c] -
   * max_r)}, the maximum and the sum in this class's order.
   *
   * @param device where it runs
   * @param in the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows * cols} elements
   */
  public static void softmax(Device device, float[] in, int rows, int cols, float[] out) {
    check("in", in.length, rows, cols, out.length, rows * cols);
    if (rows > 0) {
      RowKernelsKernels.softmax(device, Shapes.workgroupPerRow(rows), in, out, cols);
    }
  }

  /**
   * {@link #softmax(Device, float[], int, int, float[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows * cols} elements
   */
  public static void softmax(Device device, FloatArray in, int rows, int cols, FloatArray out) {
    check("in", in.length(), rows, cols, out.length(), rows * cols);
    if (rows > 0) {
      RowKernelsKernels.softmax(device, Shapes.workgroupPerRow(rows), in, out, cols);
    }
  }

  /**
   * {@link #softmax(Device, float[], int, int, float[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows * cols} elements
   */
  public static void softmax(Batch batch, FloatArray in, int rows, int cols, FloatArray out) {
    check("in", in.length(), rows, cols, out.length(), rows * cols);
    if (rows > 0) {
      RowKernelsKernels.softmax(batch, Shapes.workgroupPerRow(rows), in, out, cols);
    }
  }

  /**
   * RMSNorm as Llama applies it: {@code out[r, c] = in[r, c] * (1 / Gpu.sqrt(Σ_c in[r, c]² / cols +
   * eps)) * weight[c]}.
   *
   * @param device where it runs
   * @param in the matrix
   * @param weight at least {@code cols} elements
   * @param rows its rows
   * @param cols its columns
   * @param eps added to the mean square
   * @param out at least {@code rows * cols} elements
   */
  public static void rmsNorm(
      Device device, float[] in, float[] weight, int rows, int cols, float eps, float[] out) {
    check("in", in.length, rows, cols, out.length, rows * cols);
    Shapes.vector("weight", weight.length, cols);
    if (rows > 0) {
      RowKernelsKernels.rmsNorm(device, Shapes.workgroupPerRow(rows), in, weight, out, cols, eps);
    }
  }

  /**
   * {@link #rmsNorm(Device, float[], float[], int, int, float, float[])} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the matrix
   * @param weight at least {@code cols} elements
   * @param rows its rows
   * @param cols its columns
   * @param eps added to the mean square
   * @param out at least {@code rows * cols} elements
   */
  public static void rmsNorm(
      Device device,
      FloatArray in,
      FloatArray weight,
      int rows,
      int cols,
      float eps,
      FloatArray out) {
    check("in", in.length(), rows, cols, out.length(), rows * cols);
    Shapes.vector("weight", weight.length(), cols);
    if (rows > 0) {
      RowKernelsKernels.rmsNorm(device, Shapes.workgroupPerRow(rows), in, weight, out, cols, eps);
    }
  }

  /**
   * {@link #rmsNorm(Device, float[], float[], int, int, float, float[])} in a batch.
   *
   * @param batch the batch that records it
   * @param in the matrix
   * @param weight at least {@code cols} elements
   * @param rows its rows
   * @param cols its columns
   * @param eps added to the mean square
   * @param out at least {@code rows * cols} elements
   */
  public static void rmsNorm(
      Batch batch,
      FloatArray in,
      FloatArray weight,
      int rows,
      int cols,
      float eps,
      FloatArray out) {
    check("in", in.length(), rows, cols, out.length(), rows * cols);
    Shapes.vector("weight", weight.length(), cols);
    if (rows > 0) {
      RowKernelsKernels.rmsNorm(batch, Shapes.workgroupPerRow(rows), in, weight, out, cols, eps);
    }
  }

  /**
   * LayerNorm: with {@code mean = Σ_c in[r, c] / cols} and {@code var = Σ_c (in[r, c] - mean)² /
   * cols}, {@code out[r, c] = (in[r, c] - mean) * (1 / Gpu.sqrt(var + eps)) * weight[c] + bias[c]}.
   *
   * @param device where it runs
   * @param in the matrix
   * @param weight at least {@code cols} elements
   * @param bias at least {@code cols} elements
   * @param rows its rows
   * @param cols its columns
   * @param eps added to the variance
   * @param out at least {@code rows * cols} elements
   */
  public static void layerNorm(
      Device device,
      float[] in,
      float[] weight,
      float[] bias,
      int rows,
      int cols,
      float eps,
      float[] out) {
    check("in", in.length, rows, cols, out.length, rows * cols);
    Shapes.vector("weight", weight.length, cols);
    Shapes.vector("bias", bias.length, cols);
    if (rows > 0) {
      RowKernelsKernels.layerNorm(
          device, Shapes.workgroupPerRow(rows), in, weight, bias, out, cols, eps);
    }
  }

  /**
   * {@link #layerNorm(Device, float[], float[], float[], int, int, float, float[])} on device
   * arrays.
   *
   * @param device where it runs and the arrays are
   * @param in the matrix
   * @param weight at least {@code cols} elements
   * @param bias at least {@code cols} elements
   * @param rows its rows
   * @param cols its columns
   * @param eps added to the variance
   * @param out at least {@code rows * cols} elements
   */
  public static void layerNorm(
      Device device,
      FloatArray in,
      FloatArray weight,
      FloatArray bias,
      int rows,
      int cols,
      float eps,
      FloatArray out) {
    check("in", in.length(), rows, cols, out.length(), rows * cols);
    Shapes.vector("weight", weight.length(), cols);
    Shapes.vector("bias", bias.length(), cols);
    if (rows > 0) {
      RowKernelsKernels.layerNorm(
          device, Shapes.workgroupPerRow(rows), in, weight, bias, out, cols, eps);
    }
  }

  private static void check(
      String name, int length, int rows, int cols, int outLength, int outNeeded) {
    Shapes.matrix(name, length, rows, cols);
    Shapes.vector("out", outLength, outNeeded);
  }
}
