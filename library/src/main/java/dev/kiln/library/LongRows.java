package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.IntArray;
import java.util.function.BiConsumer;

/**
 * {@link Rows}' operations on long rows that are few ({@link SplitRowKernels}): how many parts a
 * row is split into, and each operation's two launches, its partials in a {@link Rows.Scratch}.
 */
final class LongRows {
  private LongRows() {}

  /**
   * The parts each of {@code rows} rows of {@code cols} is split into: 1 (no split) unless a row
   * holds two parts of {@link Tuning#ROW_SPLIT_COLUMNS} and the rows alone give fewer than {@link
   * Tuning#ROW_SPLIT_WORKGROUPS} workgroups; then as many parts of that many columns or more as
   * bring the workgroups near that. It depends on the shape alone, so every device gives the same
   * order.
   */
  static int parts(int rows, int cols) {
    if (rows == 0 || cols < 2 * Tuning.ROW_SPLIT_COLUMNS) {
      return 1;
    }
    return Math.max(
        1, Math.min(cols / Tuning.ROW_SPLIT_COLUMNS, Tuning.ROW_SPLIT_WORKGROUPS / rows));
  }

  /** The columns of each part but the last. */
  private static int span(int cols, int parts) {
    return Math.ceilDiv(cols, parts);
  }

  /** One workgroup per row and part: parts along x, rows along y. */
  private static Grid grid(int rows, int parts) {
    return Grid.of(parts * SplitRowKernels.WORKGROUP, rows);
  }

  static void sums(
      Batch batch, FloatArray m, int rows, int cols, FloatArray out, Rows.Scratch scratch) {
    int parts = scratch.parts();
    SplitRowKernelsKernels.partialSums(
        batch, grid(rows, parts), m, scratch.partials, cols, span(cols, parts), parts, 0);
    SplitRowKernelsKernels.foldSums(batch, rows, scratch.partials, out, parts);
  }

  static void maxima(
      Batch batch, FloatArray m, int rows, int cols, FloatArray out, Rows.Scratch scratch) {
    int parts = scratch.parts();
    SplitRowKernelsKernels.partialMaxima(
        batch, grid(rows, parts), m, scratch.partials, cols, span(cols, parts), parts);
    SplitRowKernelsKernels.foldMaxima(batch, rows, scratch.partials, out, parts);
  }

  static void argmax(
      Batch batch, FloatArray m, int rows, int cols, IntArray out, Rows.Scratch scratch) {
    int parts = scratch.parts();
    SplitRowKernelsKernels.partialArgmax(
        batch,
        grid(rows, parts),
        m,
        scratch.partials,
        scratch.indices,
        cols,
        span(cols, parts),
        parts);
    SplitRowKernelsKernels.foldArgmax(batch, rows, scratch.partials, scratch.indices, out, parts);
  }

  static void softmax(
      Batch batch, FloatArray in, int rows, int cols, FloatArray out, Rows.Scratch scratch) {
    int parts = scratch.parts();
    int span = span(cols, parts);
    SplitRowKernelsKernels.partialSoftmax(
        batch, grid(rows, parts), in, scratch.partials, cols, span, parts);
    SplitRowKernelsKernels.finishSoftmax(
        batch, grid(rows, parts), in, scratch.partials, out, cols, span, parts);
  }

  static void rmsNorm(
      Batch batch,
      FloatArray in,
      FloatArray weight,
      int rows,
      int cols,
      float eps,
      FloatArray out,
      Rows.Scratch scratch) {
    int parts = scratch.parts();
    int span = span(cols, parts);
    SplitRowKernelsKernels.partialSums(
        batch, grid(rows, parts), in, scratch.partials, cols, span, parts, 1);
    SplitRowKernelsKernels.finishRmsNorm(
        batch, grid(rows, parts), in, scratch.partials, weight, out, cols, span, parts, eps);
  }

  static void layerNorm(
      Batch batch,
      FloatArray in,
      FloatArray weight,
      FloatArray bias,
      int rows,
      int cols,
      float eps,
      FloatArray out,
      Rows.Scratch scratch) {
    int parts = scratch.parts();
    int span = span(cols, parts);
    SplitRowKernelsKernels.partialMoments(
        batch, grid(rows, parts), in, scratch.partials, cols, span, parts);
    SplitRowKernelsKernels.finishLayerNorm(
        batch, grid(rows, parts), in, scratch.partials, weight, bias, out, cols, span, parts, eps);
  }

  /** Runs {@code operation} in a batch of its own with a scratch of its own. */
  static void inABatch(
      Device device, int rows, int cols, BiConsumer<Batch, Rows.Scratch> operation) {
    try (Rows.Scratch scratch = Rows.scratch(device, rows, cols);
        Batch batch = device.batch()) {
      operation.accept(batch, scratch);
    }
  }

  /**
   * Runs {@code operation} on device copies of {@code in} and of the first {@code produced}
   * elements of {@code out}, then copies those back into {@code out}.
   */
  static void throughDevice(
      Device device,
      float[] in,
      float[] out,
      int produced,
      BiConsumer<FloatArray, FloatArray> operation) {
    try (FloatArray onDevice = device.upload(in);
        FloatArray result = device.floats(produced)) {
      operation.accept(onDevice, result);
      result.download(out, 0, 0, produced);
    }
  }
}
