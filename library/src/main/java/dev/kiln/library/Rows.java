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
 * <p>Long rows that are few (at most 256 rows, each of 4096 columns or more: a vocabulary's logits)
 * would leave most of a GPU idle with one workgroup each. There the calls on a {@link Device} split
 * each row into {@code min(cols / 2048, 512 / rows)} parts (the last one shorter), so that the
 * launch has near 512 workgroups; the count depends on the shape alone. Each part is folded as a
 * row is above (but {@code softmax}'s, whose maximum and sum come from one read: each invocation's
 * with a running maximum, the pairs folded in the same tree), and the parts' results are then
 * combined in order of the parts ({@code softmax} as {@code Σ_p sum_p · Gpu.exp(max_p - max)},
 * {@code layerNorm}'s variance by Chan's merge of the parts' means and squared differences). In a
 * {@link Batch}, the calls that take a {@link Scratch} split as those do; the others give each row
 * one workgroup.
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
   * The device arrays a batch's call on long rows keeps its parts' results in ({@link
   * #scratch(Device, int, int)}), for one shape; reusable by every call on that shape in any batch
   * that runs after the last one using it has finished. Closing it frees them.
   */
  public static final class Scratch implements AutoCloseable {
    private final int rows;
    private final int cols;
    final FloatArray partials;
    final IntArray indices;

    private Scratch(Device device, int rows, int cols) {
      this.rows = rows;
      this.cols = cols;
      int parts = LongRows.parts(rows, cols);
      int cells = parts > 1 ? rows * parts : 0;
      FloatArray floats = device.floats(Math.max(1, 2 * cells));
      try {
        this.indices = device.ints(Math.max(1, cells));
      } catch (RuntimeException e) {
        floats.close();
        throw e;
      }
      this.partials = floats;
    }

    /** The parts each row is split into: 1 where the rows are not split. */
    int parts() {
      return LongRows.parts(rows, cols);
    }

    /** Checks that this scratch is for {@code rows x cols}. */
    private void check(int rows, int cols) {
      if (rows != this.rows || cols != this.cols) {
        throw new IllegalArgumentException(
            "a scratch for "
                + this.rows
                + " x "
                + this.cols
                + " is passed for "
                + rows
                + " x "
                + cols);
      }
    }

    @Override
    public void close() {
      try {
        partials.close();
      } finally {
        indices.close();
      }
    }
  }

  /**
   * A scratch for calls in a batch on {@code rows x cols} matrices, on {@code device}: with it,
   * long rows that are few split into parts as the calls on a {@link Device} do.
   *
   * @param device where the batch runs
   * @param rows the rows
   * @param cols the columns
   * @return a new scratch, to close after its last batch has run
   */
  public static Scratch scratch(Device device, int rows, int cols) {
    Shapes.matrix("the matrix", Integer.MAX_VALUE, rows, cols);
    return new Scratch(device, rows, cols);
  }

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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.throughDevice(
          device,
          matrix,
          out,
          rows,
          (m, o) ->
              LongRows.inABatch(
                  device, rows, cols, (b, s) -> LongRows.sums(b, m, rows, cols, o, s)));
    } else if (rows > 0) {
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.inABatch(device, rows, cols, (b, s) -> LongRows.sums(b, matrix, rows, cols, out, s));
    } else if (rows > 0) {
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
   * {@link #sums(Batch, FloatArray, int, int, FloatArray)} with a scratch: long rows that are few
   * split into parts.
   *
   * @param batch the batch that records it
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   * @param scratch a scratch for {@code rows x cols}
   */
  public static void sums(
      Batch batch, FloatArray matrix, int rows, int cols, FloatArray out, Scratch scratch) {
    scratch.check(rows, cols);
    if (scratch.parts() > 1) {
      check("matrix", matrix.length(), rows, cols, out.length(), rows);
      LongRows.sums(batch, matrix, rows, cols, out, scratch);
    } else {
      sums(batch, matrix, rows, cols, out);
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.throughDevice(
          device,
          matrix,
          out,
          rows,
          (m, o) ->
              LongRows.inABatch(
                  device, rows, cols, (b, s) -> LongRows.maxima(b, m, rows, cols, o, s)));
    } else if (rows > 0) {
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      try (FloatArray onDevice = device.upload(matrix);
          IntArray result = device.ints(rows)) {
        LongRows.inABatch(
            device, rows, cols, (b, s) -> LongRows.argmax(b, onDevice, rows, cols, result, s));
        result.download(out, 0, 0, rows);
      }
    } else if (rows > 0) {
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.inABatch(
          device, rows, cols, (b, s) -> LongRows.argmax(b, matrix, rows, cols, out, s));
    } else if (rows > 0) {
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
   * {@link #argmax(Batch, FloatArray, int, int, IntArray)} with a scratch: long rows that are few
   * split into parts.
   *
   * @param batch the batch that records it
   * @param matrix the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows} elements
   * @param scratch a scratch for {@code rows x cols}
   */
  public static void argmax(
      Batch batch, FloatArray matrix, int rows, int cols, IntArray out, Scratch scratch) {
    scratch.check(rows, cols);
    if (scratch.parts() > 1) {
      check("matrix", matrix.length(), rows, cols, out.length(), rows);
      LongRows.argmax(batch, matrix, rows, cols, out, scratch);
    } else {
      argmax(batch, matrix, rows, cols, out);
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.throughDevice(
          device,
          in,
          out,
          rows * cols,
          (m, o) ->
              LongRows.inABatch(
                  device, rows, cols, (b, s) -> LongRows.softmax(b, m, rows, cols, o, s)));
    } else if (rows > 0) {
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.inABatch(device, rows, cols, (b, s) -> LongRows.softmax(b, in, rows, cols, out, s));
    } else if (rows > 0) {
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
   * {@link #softmax(Batch, FloatArray, int, int, FloatArray)} with a scratch: long rows that are
   * few split into parts.
   *
   * @param batch the batch that records it
   * @param in the matrix
   * @param rows its rows
   * @param cols its columns
   * @param out at least {@code rows * cols} elements
   * @param scratch a scratch for {@code rows x cols}
   */
  public static void softmax(
      Batch batch, FloatArray in, int rows, int cols, FloatArray out, Scratch scratch) {
    scratch.check(rows, cols);
    if (scratch.parts() > 1) {
      check("in", in.length(), rows, cols, out.length(), rows * cols);
      LongRows.softmax(batch, in, rows, cols, out, scratch);
    } else {
      softmax(batch, in, rows, cols, out);
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      try (FloatArray weights = device.upload(weight)) {
        LongRows.throughDevice(
            device,
            in,
            out,
            rows * cols,
            (m, o) ->
                LongRows.inABatch(
                    device,
                    rows,
                    cols,
                    (b, s) -> LongRows.rmsNorm(b, m, weights, rows, cols, eps, o, s)));
      }
    } else if (rows > 0) {
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.inABatch(
          device, rows, cols, (b, s) -> LongRows.rmsNorm(b, in, weight, rows, cols, eps, out, s));
    } else if (rows > 0) {
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
   * {@link #rmsNorm(Batch, FloatArray, FloatArray, int, int, float, FloatArray)} with a scratch:
   * long rows that are few split into parts.
   *
   * @param batch the batch that records it
   * @param in the matrix
   * @param weight at least {@code cols} elements
   * @param rows its rows
   * @param cols its columns
   * @param eps added to the mean square
   * @param out at least {@code rows * cols} elements
   * @param scratch a scratch for {@code rows x cols}
   */
  public static void rmsNorm(
      Batch batch,
      FloatArray in,
      FloatArray weight,
      int rows,
      int cols,
      float eps,
      FloatArray out,
      Scratch scratch) {
    scratch.check(rows, cols);
    if (scratch.parts() > 1) {
      check("in", in.length(), rows, cols, out.length(), rows * cols);
      Shapes.vector("weight", weight.length(), cols);
      LongRows.rmsNorm(batch, in, weight, rows, cols, eps, out, scratch);
    } else {
      rmsNorm(batch, in, weight, rows, cols, eps, out);
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      try (FloatArray weights = device.upload(weight);
          FloatArray biases = device.upload(bias)) {
        LongRows.throughDevice(
            device,
            in,
            out,
            rows * cols,
            (m, o) ->
                LongRows.inABatch(
                    device,
                    rows,
                    cols,
                    (b, s) -> LongRows.layerNorm(b, m, weights, biases, rows, cols, eps, o, s)));
      }
    } else if (rows > 0) {
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
    int parts = LongRows.parts(rows, cols);
    if (parts > 1) {
      LongRows.inABatch(
          device,
          rows,
          cols,
          (b, s) -> LongRows.layerNorm(b, in, weight, bias, rows, cols, eps, out, s));
    } else if (rows > 0) {
      RowKernelsKernels.layerNorm(
          device, Shapes.workgroupPerRow(rows), in, weight, bias, out, cols, eps);
    }
  }

  /**
   * {@link #layerNorm(Device, float[], float[], float[], int, int, float, float[])} in a batch, on
   * device arrays; with a scratch for {@code rows x cols} long rows that are few split into parts,
   * and without one ({@code null}) each row has one workgroup.
   *
   * @param batch the batch that records it
   * @param in the matrix
   * @param weight at least {@code cols} elements
   * @param bias at least {@code cols} elements
   * @param rows its rows
   * @param cols its columns
   * @param eps added to the variance
   * @param out at least {@code rows * cols} elements
   * @param scratch a scratch for {@code rows x cols}, or null
   */
  public static void layerNorm(
      Batch batch,
      FloatArray in,
      FloatArray weight,
      FloatArray bias,
      int rows,
      int cols,
      float eps,
      FloatArray out,
      Scratch scratch) {
    check("in", in.length(), rows, cols, out.length(), rows * cols);
    Shapes.vector("weight", weight.length(), cols);
    Shapes.vector("bias", bias.length(), cols);
    if (scratch != null) {
      scratch.check(rows, cols);
    }
    if (scratch != null && scratch.parts() > 1) {
      LongRows.layerNorm(batch, in, weight, bias, rows, cols, eps, out, scratch);
    } else if (rows > 0) {
      RowKernelsKernels.layerNorm(
          batch, Shapes.workgroupPerRow(rows), in, weight, bias, out, cols, eps);
    }
  }

  private static void check(
      String name, int length, int rows, int cols, int outLength, int outNeeded) {
    Shapes.matrix(name, length, rows, cols);
    Shapes.vector("out", outLength, outNeeded);
  }
}
