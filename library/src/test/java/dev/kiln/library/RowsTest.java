package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Rows} at ragged shapes against plain Java: sums, maxima and argmax bit for bit on both
 * devices (sums against the fold in the documented order, and within the reassociation bound of a
 * double sum), softmax and the norms within a bound of double references.
 */
class RowsTest extends LibraryDevices {
  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({
    "1, 1",
    "3, 7",
    "5, 127",
    "2, 1000",
    "3, 4099",
    "0, 5",
    "4, 0",
    "1, 256",
    "2, 257",
    "1, 4096",
    "2, 9000",
    "1, 20000",
    "600, 5000"
  })
  void sumsMaximaAndArgmaxAreJavasFolds(int rows, int cols) {
    float[] m = values(new Random(rows * 7919L + cols), rows * cols);
    for (Device device : devices()) {
      float[] sums = new float[rows];
      float[] maxima = new float[rows];
      int[] argmax = new int[rows];
      Rows.sums(device, m, rows, cols, sums);
      Rows.maxima(device, m, rows, cols, maxima);
      Rows.argmax(device, m, rows, cols, argmax);
      for (int r = 0; r < rows; r++) {
        String where = device + ", row " + r;
        assertEquals(
            Float.floatToIntBits(rowSum(m, r, rows, cols)), Float.floatToIntBits(sums[r]), where);
        double exact = 0;
        double magnitude = 0;
        float max = Float.NEGATIVE_INFINITY;
        int first = -1;
        for (int c = 0; c < cols; c++) {
          float v = m[r * cols + c];
          exact += v;
          magnitude += Math.abs(v);
          max = Math.max(max, v);
          if (first < 0 || Float.compare(v, m[r * cols + first]) > 0) {
            first = c;
          }
        }
        assertTrue(Math.abs(sums[r] - exact) <= cols * 0x1p-24 * magnitude, where);
        assertEquals(Float.floatToIntBits(max), Float.floatToIntBits(maxima[r]), where);
        assertEquals(first, argmax[r], where);
      }
    }
  }

  /** NaN, infinities, signed zeros and equal keys, as Java orders them. */
  @Test
  void specialValuesAndTies() {
    float nan = Float.NaN;
    float inf = Float.POSITIVE_INFINITY;
    float[] m = {
      1f, 3f, 3f, 2f, // a tie: the first
      -0f, 0f, -0f, 0f, // 0.0 above -0.0
      1f, nan, inf, nan, // NaN above everything, the first
      -inf, -inf, -inf, -inf
    };
    for (Device device : devices()) {
      int[] argmax = new int[4];
      float[] maxima = new float[4];
      float[] sums = new float[4];
      Rows.argmax(device, m, 4, 4, argmax);
      Rows.maxima(device, m, 4, 4, maxima);
      Rows.sums(device, m, 4, 4, sums);
      assertArrayEquals(new int[] {1, 1, 1, 0}, argmax, device.toString());
      assertArrayEquals(new float[] {3f, 0f, nan, -inf}, maxima, device.toString());
      assertArrayEquals(new float[] {9f, 0f, nan, -inf}, sums, device.toString());
    }
  }

  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({"1, 1", "3, 7", "5, 127", "2, 1000", "3, 4099", "1, 256", "2, 9000", "1, 20000"})
  void softmaxAndNormsMatchDoubleReferences(int rows, int cols) {
    Random random = new Random(rows * 31L + cols);
    float[] in = values(random, rows * cols);
    float[] weight = values(random, cols);
    float[] bias = values(random, cols);
    float eps = 1e-5f;
    for (Device device : devices()) {
      float[] soft = new float[rows * cols];
      float[] rms = new float[rows * cols];
      float[] layer = new float[rows * cols];
      Rows.softmax(device, in, rows, cols, soft);
      Rows.rmsNorm(device, in, weight, rows, cols, eps, rms);
      Rows.layerNorm(device, in, weight, bias, rows, cols, eps, layer);
      for (int r = 0; r < rows; r++) {
        double max = Double.NEGATIVE_INFINITY;
        double squares = 0;
        double sum = 0;
        for (int c = 0; c < cols; c++) {
          double v = in[r * cols + c];
          max = Math.max(max, v);
          squares += v * v;
          sum += v;
        }
        double expSum = 0;
        double spread = 0;
        for (int c = 0; c < cols; c++) {
          expSum += Math.exp(in[r * cols + c] - max);
          spread += Math.pow(in[r * cols + c] - sum / cols, 2);
        }
        double rmsScale = 1 / Math.sqrt(squares / cols + eps);
        double layerScale = 1 / Math.sqrt(spread / cols + eps);
        for (int c = 0; c < cols; c++) {
          int e = r * cols + c;
          String where = device + ", (" + r + ", " + c + ")";
          close(Math.exp(in[e] - max) / expSum, soft[e], where + " softmax");
          close(in[e] * rmsScale * weight[c], rms[e], where + " rmsNorm");
          close(
              (in[e] - sum / cols) * layerScale * weight[c] + bias[c],
              layer[e],
              where + " layerNorm");
        }
      }
    }
  }

  /**
   * A long row split into parts (8192 columns: 4 of 2048) with a part of -Infinity only, a tie of
   * its largest value across parts, and a NaN-free rest: each operation as on one workgroup.
   */
  @Test
  void longRowsSplitIntoPartsKeepSpecialValues() {
    int cols = 8192;
    assertEquals(4, LongRows.parts(1, cols));
    float[] row = values(new Random(8192), cols);
    java.util.Arrays.fill(row, 4096, 6144, Float.NEGATIVE_INFINITY);
    row[1000] = 100f;
    row[7000] = 100f;
    float[] weight = values(new Random(3), cols);
    for (Device device : devices()) {
      int[] argmax = new int[1];
      float[] maxima = new float[1];
      float[] sums = new float[1];
      float[] soft = new float[cols];
      Rows.argmax(device, row, 1, cols, argmax);
      Rows.maxima(device, row, 1, cols, maxima);
      Rows.sums(device, row, 1, cols, sums);
      Rows.softmax(device, row, 1, cols, soft);
      assertEquals(1000, argmax[0], device.toString());
      assertEquals(100f, maxima[0], device.toString());
      assertEquals(Float.NEGATIVE_INFINITY, sums[0], device.toString());
      double expSum = 0;
      for (float v : row) {
        expSum += Math.exp(v - 100.0);
      }
      for (int c = 0; c < cols; c++) {
        close(Math.exp(row[c] - 100.0) / expSum, soft[c], device + ", softmax " + c);
      }
      try (FloatArray input = device.upload(row);
          dev.kiln.IntArray index = device.ints(1)) {
        Rows.argmax(device, input, 1, cols, index);
        assertEquals(1000, index.toArray()[0], device + ", device arrays");
      }
    }
  }

  /**
   * A split softmax takes each part in one pass with a running maximum: a NaN, or a +Infinity
   * (whose term {@code Gpu.exp(x - max)} is NaN), anywhere in a long row makes the whole row NaN,
   * as the formula and the unsplit kernel give; a row rising then falling (the running maximum
   * moving in every invocation) and one of -Infinity in its first parts are the double reference's.
   */
  @Test
  void aSplitSoftmaxKeepsTheFormulasSpecialValues() {
    int rows = 4;
    int cols = 9000;
    assertEquals(4, LongRows.parts(rows, cols));
    float[] in = values(new Random(9001), rows * cols);
    in[5000] = Float.NaN;
    in[cols + 7000] = Float.POSITIVE_INFINITY;
    for (int c = 0; c < cols; c++) {
      in[2 * cols + c] = c < cols / 2 ? c / 300f : (cols - c) / 300f;
    }
    java.util.Arrays.fill(in, 3 * cols + 100, 4 * cols, Float.NEGATIVE_INFINITY);
    for (Device device : devices()) {
      float[] soft = new float[rows * cols];
      Rows.softmax(device, in, rows, cols, soft);
      for (int c = 0; c < cols; c++) {
        assertTrue(Float.isNaN(soft[c]), device + ": NaN in the row, column " + c);
        assertTrue(Float.isNaN(soft[cols + c]), device + ": +Infinity in the row, column " + c);
      }
      for (int r = 2; r < rows; r++) {
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < cols; c++) {
          max = Math.max(max, in[r * cols + c]);
        }
        double expSum = 0;
        for (int c = 0; c < cols; c++) {
          expSum += Math.exp(in[r * cols + c] - max);
        }
        for (int c = 0; c < cols; c++) {
          int e = r * cols + c;
          close(Math.exp(in[e] - max) / expSum, soft[e], device + ", row " + r + ", column " + c);
        }
      }
    }
  }

  /**
   * In a batch with a scratch, long rows split as the calls on a device do: the same kernels, so
   * the same bits; a scratch for another shape is refused.
   */
  @Test
  void inABatchWithAScratchLongRowsSplitToo() {
    int rows = 8; // each row in 4 parts, whose order shows in the bits of some row
    int cols = 9000;
    Random random = new Random(9000);
    float[] in = values(random, rows * cols);
    float[] weight = values(random, cols);
    float[] bias = values(random, cols);
    for (Device device : devices()) {
      float[] soft = new float[rows * cols];
      float[] rms = new float[rows * cols];
      float[] layer = new float[rows * cols];
      float[] sums = new float[rows];
      int[] argmax = new int[rows];
      Rows.softmax(device, in, rows, cols, soft);
      Rows.rmsNorm(device, in, weight, rows, cols, 1e-5f, rms);
      Rows.layerNorm(device, in, weight, bias, rows, cols, 1e-5f, layer);
      Rows.sums(device, in, rows, cols, sums);
      Rows.argmax(device, in, rows, cols, argmax);
      try (FloatArray input = device.upload(in);
          FloatArray weights = device.upload(weight);
          FloatArray biases = device.upload(bias);
          FloatArray softOut = device.floats(rows * cols);
          FloatArray rmsOut = device.floats(rows * cols);
          FloatArray layerOut = device.floats(rows * cols);
          FloatArray sumsOut = device.floats(rows);
          dev.kiln.IntArray argmaxOut = device.ints(rows);
          Rows.Scratch scratch = Rows.scratch(device, rows, cols)) {
        try (Batch batch = device.batch()) {
          Rows.softmax(batch, input, rows, cols, softOut, scratch);
          batch.submit(); // the scratch is reused below: one call's partials at a time
        }
        try (Batch batch = device.batch()) {
          Rows.rmsNorm(batch, input, weights, rows, cols, 1e-5f, rmsOut, scratch);
        }
        try (Batch batch = device.batch()) {
          Rows.layerNorm(batch, input, weights, biases, rows, cols, 1e-5f, layerOut, scratch);
        }
        try (Batch batch = device.batch()) {
          Rows.sums(batch, input, rows, cols, sumsOut, scratch);
        }
        try (Batch batch = device.batch()) {
          Rows.argmax(batch, input, rows, cols, argmaxOut, scratch);
        }
        assertArrayEquals(soft, softOut.toArray(), device + " softmax");
        try (Batch batch = device.batch()) { // without a scratch: one workgroup a row
          Rows.softmax(batch, input, rows, cols, softOut);
        }
        assertTrue(
            !java.util.Arrays.equals(soft, softOut.toArray()),
            device + ": the split softmax is not the unsplit one on this data");
        assertArrayEquals(rms, rmsOut.toArray(), device + " rmsNorm");
        assertArrayEquals(layer, layerOut.toArray(), device + " layerNorm");
        assertArrayEquals(sums, sumsOut.toArray(), device + " sums");
        try (Batch batch = device.batch()) {
          Rows.sums(batch, input, rows, cols, sumsOut);
        }
        assertTrue(
            !java.util.Arrays.equals(sums, sumsOut.toArray()),
            device + ": the split sums are not the unsplit ones on this data");
        assertArrayEquals(argmax, argmaxOut.toArray(), device + " argmax");
        try (Batch batch = device.batch()) {
          IllegalArgumentException wrong =
              assertThrows(
                  IllegalArgumentException.class,
                  () -> Rows.sums(batch, input, 1, cols, sumsOut, scratch));
          assertEquals("a scratch for 8 x 9000 is passed for 1 x 9000", wrong.getMessage());
        }
      }
    }
  }

  @Test
  void inABatchOnDeviceArrays() {
    int rows = 3;
    int cols = 300;
    float[] in = values(new Random(5), rows * cols);
    float[] onCpu = new float[rows * cols];
    Rows.softmax(cpu, in, rows, cols, onCpu);
    try (FloatArray input = vulkan.upload(in);
        FloatArray output = vulkan.floats(rows * cols);
        FloatArray sums = vulkan.floats(rows);
        Batch batch = vulkan.batch()) {
      Rows.softmax(batch, input, rows, cols, output);
      Rows.sums(batch, output, rows, cols, sums);
      batch.submit();
      float[] soft = output.toArray();
      for (int e = 0; e < soft.length; e++) {
        close(onCpu[e], soft[e], "element " + e);
      }
      for (float sum : sums.toArray()) {
        assertEquals(1f, sum, 1e-5f);
      }
    }
  }

  @Test
  void shapesTheArraysCannotHoldAreRefusedBeforeAnythingRuns() {
    IndexOutOfBoundsException shortOut =
        assertThrows(
            IndexOutOfBoundsException.class,
            () -> Rows.sums(cpu, new float[12], 3, 4, new float[2]));
    assertEquals("out holds 2 elements, and 3 are needed", shortOut.getMessage());
    assertThrows(
        IndexOutOfBoundsException.class,
        () -> Rows.softmax(vulkan, new float[11], 3, 4, new float[12]));
    assertThrows(
        IllegalArgumentException.class, () -> Rows.sums(cpu, new float[0], -1, 4, new float[0]));
    assertThrows(
        IllegalArgumentException.class,
        () -> Rows.sums(cpu, new float[0], 1 << 16, 1 << 16, new float[1 << 16]));
  }

  /**
   * The row's sum in the documented order: the row's parts ({@code LongRows.parts}: one unless the
   * rows are long and few), each summed as {@link #treeSum}, added in order.
   */
  private static float rowSum(float[] m, int row, int rows, int cols) {
    int parts = LongRows.parts(rows, cols);
    int span = Math.ceilDiv(cols, parts);
    float sum = 0f;
    for (int p = 0; p < parts; p++) {
      sum += treeSum(m, row * cols + p * span, Math.min(cols, p * span + span) - p * span);
    }
    return sum;
  }

  /**
   * The sum of {@code m[start]} to {@code m[start + count - 1]}: strided partials of 256, then the
   * tree.
   */
  private static float treeSum(float[] m, int start, int count) {
    float[] partial = new float[256];
    for (int l = 0; l < 256; l++) {
      for (int c = l; c < count; c += 256) {
        partial[l] += m[start + c];
      }
    }
    for (int s = 128; s > 0; s >>= 1) {
      for (int l = 0; l < s; l++) {
        partial[l] += partial[l + s];
      }
    }
    return partial[0];
  }

  private static void close(double expected, float actual, String where) {
    assertTrue(
        Math.abs(expected - actual) <= 1e-5 * Math.max(1, Math.abs(expected)),
        where + ": " + actual + ", expected " + expected);
  }

  static float[] values(Random random, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextFloat() * 8f - 4f;
    }
    return values;
  }
}
