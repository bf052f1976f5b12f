package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Gemv} at ragged shapes: every element the documented fold of Java's rounded products (so
 * the same bits on both devices), within the reassociation bound of the double product, for float,
 * float16 and bfloat16 matrices, overwriting {@code y} or adding to it.
 */
class GemvTest extends LibraryDevices {
  private enum Element {
    FLOAT,
    HALF,
    BFLOAT
  }

  @ParameterizedTest(name = "{0} x {1}, accumulate {2}")
  @CsvSource({
    "1, 1, false",
    "7, 3, true",
    "127, 1000, false",
    "3, 4099, true",
    "1000, 257, false",
    "9, 4096, true",
    "5, 1031, false",
    "0, 9, false"
  })
  void productsAreJavasFolds(int rows, int cols, boolean accumulate) {
    Random random = new Random(rows * 1009L + cols);
    float[] a = RowsTest.values(random, rows * cols);
    float[] x = RowsTest.values(random, cols);
    float[] y0 = RowsTest.values(random, rows);
    short[] halves = new short[a.length];
    short[] bfloats = new short[a.length];
    for (int i = 0; i < a.length; i++) {
      halves[i] = Float.floatToFloat16(a[i]);
      bfloats[i] = (short) (Float.floatToRawIntBits(a[i]) >>> 16);
    }
    for (Element element : Element.values()) {
      float[] decoded = new float[a.length];
      for (int i = 0; i < a.length; i++) {
        decoded[i] =
            switch (element) {
              case FLOAT -> a[i];
              case HALF -> Float.float16ToFloat(halves[i]);
              case BFLOAT -> Float.intBitsToFloat(bfloats[i] << 16);
            };
      }
      for (Device device : devices()) {
        float[] y = y0.clone();
        switch (element) {
          case FLOAT -> Gemv.floats(device, a, rows, cols, x, y, accumulate);
          case HALF -> Gemv.halves(device, halves, rows, cols, x, y, accumulate);
          case BFLOAT -> Gemv.bfloats(device, bfloats, rows, cols, x, y, accumulate);
        }
        for (int r = 0; r < rows; r++) {
          String where = element + " on " + device + ", row " + r;
          int chunk = 8; // 32 bytes of floats, 16 of 16-bit elements
          float[] partial = new float[32];
          double exact = 0;
          double magnitude = 0;
          for (int lane = 0; lane < 32; lane++) {
            for (int start = lane * chunk; start < cols; start += 32 * chunk) {
              for (int c = start; c < Math.min(start + chunk, cols); c++) {
                float product = decoded[r * cols + c] * x[c];
                partial[lane] += product;
                exact += (double) decoded[r * cols + c] * x[c];
                magnitude += Math.abs(product);
              }
            }
          }
          for (int s = 16; s > 0; s >>= 1) {
            for (int lane = 0; lane < s; lane++) {
              partial[lane] += partial[lane + s];
            }
          }
          float expected = accumulate ? y0[r] + partial[0] : partial[0];
          assertEquals(Float.floatToIntBits(expected), Float.floatToIntBits(y[r]), where);
          double bound =
              (cols + 1) * 0x1p-24 * (magnitude + Math.abs(y0[r])) + 0x1p-24 * Math.abs(expected);
          assertTrue(Math.abs(y[r] - (accumulate ? y0[r] + exact : exact)) <= bound, where);
        }
      }
    }
  }

  /** The fused pair gives each product's bits, whichever has more rows. */
  @ParameterizedTest(name = "{0} and {1} rows of {2}")
  @CsvSource({"1, 1, 1", "7, 300, 129", "300, 7, 4099", "64, 64, 256"})
  void aFusedPairGivesEachProduct(int firstRows, int secondRows, int cols) {
    Random random = new Random(firstRows * 31L + secondRows * 7L + cols);
    float[] a = RowsTest.values(random, firstRows * cols);
    float[] b = RowsTest.values(random, secondRows * cols);
    float[] x = RowsTest.values(random, cols);
    for (Device device : devices()) {
      float[] y = new float[firstRows];
      float[] z = new float[secondRows];
      float[] ySeparately = new float[firstRows];
      float[] zSeparately = new float[secondRows];
      Gemv.pair(device, a, firstRows, b, secondRows, cols, x, y, z);
      Gemv.floats(device, a, firstRows, cols, x, ySeparately, false);
      Gemv.floats(device, b, secondRows, cols, x, zSeparately, false);
      org.junit.jupiter.api.Assertions.assertArrayEquals(ySeparately, y, device.toString());
      org.junit.jupiter.api.Assertions.assertArrayEquals(zSeparately, z, device.toString());
    }
  }

  /**
   * The pairs in a batch on device arrays, of floats and of float16 and bfloat16 matrices: each
   * product's bits as {@code Gemv.floats}, {@code halves} or {@code bfloats} gives them.
   */
  @ParameterizedTest(name = "{0} and {1} rows of {2}")
  @CsvSource({"1, 1, 1", "7, 300, 129", "300, 7, 4099", "64, 64, 256"})
  void pairsInABatchGiveEachProduct(int firstRows, int secondRows, int cols) {
    Random random = new Random(firstRows * 17L + secondRows * 5L + cols);
    float[] a = RowsTest.values(random, firstRows * cols);
    float[] b = RowsTest.values(random, secondRows * cols);
    float[] x = RowsTest.values(random, cols);
    short[] a16 = new short[a.length];
    short[] b16 = new short[b.length];
    for (Device device : devices()) {
      for (int format = 0; format < 3; format++) {
        for (int i = 0; i < a.length; i++) {
          a16[i] =
              format == 1
                  ? Float.floatToFloat16(a[i])
                  : (short) (Float.floatToRawIntBits(a[i]) >>> 16);
        }
        for (int i = 0; i < b.length; i++) {
          b16[i] =
              format == 1
                  ? Float.floatToFloat16(b[i])
                  : (short) (Float.floatToRawIntBits(b[i]) >>> 16);
        }
        float[] ySeparately = new float[firstRows];
        float[] zSeparately = new float[secondRows];
        if (format == 0) {
          Gemv.floats(device, a, firstRows, cols, x, ySeparately, false);
          Gemv.floats(device, b, secondRows, cols, x, zSeparately, false);
        } else if (format == 1) {
          Gemv.halves(device, a16, firstRows, cols, x, ySeparately, false);
          Gemv.halves(device, b16, secondRows, cols, x, zSeparately, false);
        } else {
          Gemv.bfloats(device, a16, firstRows, cols, x, ySeparately, false);
          Gemv.bfloats(device, b16, secondRows, cols, x, zSeparately, false);
        }
        try (FloatArray da = device.upload(a);
            FloatArray db = device.upload(b);
            dev.kiln.ShortArray da16 = device.upload(a16);
            dev.kiln.ShortArray db16 = device.upload(b16);
            FloatArray dx = device.upload(x);
            FloatArray y = device.floats(firstRows);
            FloatArray z = device.floats(secondRows)) {
          try (dev.kiln.Batch batch = device.batch()) {
            if (format == 0) {
              Gemv.pair(batch, da, firstRows, db, secondRows, cols, dx, y, z);
            } else {
              Gemv.pair(batch, da16, firstRows, db16, secondRows, cols, dx, y, z, format == 2);
            }
          }
          String where = device + ", format " + format;
          org.junit.jupiter.api.Assertions.assertArrayEquals(ySeparately, y.toArray(), where);
          org.junit.jupiter.api.Assertions.assertArrayEquals(zSeparately, z.toArray(), where);
        }
      }
    }
  }

  /**
   * Parts of larger arrays (offsets, rows further apart than their length, NaN between them, which
   * no product may read): the bits of the whole-array products, for each format; {@code y}'s
   * neighbours untouched.
   */
  @ParameterizedTest(name = "{0} x {1}, offset {2}, gap {3}")
  @CsvSource({"7, 300, 5, 3", "300, 129, 8, 8", "33, 4099, 0, 1"})
  void partsOfArraysGiveTheWholeArraysBits(int rows, int cols, int offset, int gap) {
    Random random = new Random(rows * 13L + cols + offset);
    float[] a = RowsTest.values(random, rows * cols);
    float[] x = RowsTest.values(random, cols);
    for (Device device : devices()) {
      for (int format = 0; format < 3; format++) {
        float[] expected = new float[rows];
        short[] a16 = GemmTest.sixteenBits(a, format == 2);
        if (format == 0) {
          Gemv.floats(device, a, rows, cols, x, expected, false);
        } else if (format == 1) {
          Gemv.halves(device, a16, rows, cols, x, expected, false);
        } else {
          Gemv.bfloats(device, a16, rows, cols, x, expected, false);
        }
        float[] wideY = GemmTest.spread(new float[rows], 1, rows, offset, 0, -3f);
        try (FloatArray da = device.upload(GemmTest.spread(a, rows, cols, offset, gap, Float.NaN));
            dev.kiln.ShortArray da16 =
                device.upload(GemmTest.spreadShorts(a16, rows, cols, offset, gap));
            FloatArray dx = device.upload(GemmTest.spread(x, 1, cols, offset + 1, 0, Float.NaN));
            FloatArray dy = device.upload(wideY);
            dev.kiln.Batch batch = device.batch()) {
          int lda = cols + gap;
          if (format == 0) {
            Gemv.floats(batch, da, offset, lda, rows, cols, dx, offset + 1, dy, offset, false);
          } else if (format == 1) {
            Gemv.halves(batch, da16, offset, lda, rows, cols, dx, offset + 1, dy, offset, false);
          } else {
            Gemv.bfloats(batch, da16, offset, lda, rows, cols, dx, offset + 1, dy, offset, false);
          }
          batch.submit();
          org.junit.jupiter.api.Assertions.assertArrayEquals(
              GemmTest.spread(expected, 1, rows, offset, 0, -3f),
              dy.toArray(),
              device + ", format " + format);
        }
      }
    }
  }

  /**
   * NaN and infinities reach y as in Java's loop in the documented order (a NaN row; an infinite x
   * element, NaN where it meets a 0): the same bits on both devices, every NaN alike.
   */
  @Test
  void nanAndInfinitiesPropagateAsInJava() {
    int rows = 5;
    int cols = 300;
    float[] a = RowsTest.values(new Random(31), rows * cols);
    float[] x = RowsTest.values(new Random(32), cols);
    a[cols + 17] = Float.NaN;
    x[200] = Float.NEGATIVE_INFINITY;
    a[3 * cols + 200] = 0f;
    for (Device device : devices()) {
      float[] y = new float[rows];
      Gemv.floats(device, a, rows, cols, x, y, false);
      org.junit.jupiter.api.Assertions.assertTrue(
          Float.isNaN(y[1]) && Float.isNaN(y[3]), device.toString());
      org.junit.jupiter.api.Assertions.assertTrue(
          Float.isInfinite(y[0]) && Float.isInfinite(y[4]), device.toString());
      float[] halves = new float[rows];
      Gemv.halves(device, GemmTest.sixteenBits(a, false), rows, cols, x, halves, false);
      for (int r = 0; r < rows; r++) {
        org.junit.jupiter.api.Assertions.assertEquals(
            Float.isNaN(y[r]), Float.isNaN(halves[r]), device + " float16, row " + r);
      }
    }
  }

  /**
   * Every float16 value decodes exactly ({@code Float.float16ToFloat}) in a lane: all 65536
   * patterns in rows of one chunk, in order (chunks of one kind: zeros, subnormals, infinities and
   * NaNs among them) and shuffled (mixed chunks), by a vector of ones, against Java's sum of the
   * row in order.
   */
  @Test
  void everyFloat16DecodesExactly() {
    int cols = GemvKernels.SHORT_CHUNK;
    int rows = 65536 / cols;
    short[] inOrder = new short[65536];
    for (int h = 0; h < inOrder.length; h++) {
      inOrder[h] = (short) h;
    }
    short[] shuffled = inOrder.clone();
    Random random = new Random(16);
    for (int i = shuffled.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      short t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    float[] ones = new float[cols];
    java.util.Arrays.fill(ones, 1f);
    for (short[] a : new short[][] {inOrder, shuffled}) {
      float[] expected = new float[rows];
      for (int r = 0; r < rows; r++) {
        float sum = 0f;
        for (int c = 0; c < cols; c++) {
          sum += Float.float16ToFloat(a[r * cols + c]) * 1f;
        }
        expected[r] = sum;
      }
      for (Device device : devices()) {
        float[] y = new float[rows];
        Gemv.halves(device, a, rows, cols, ones, y, false);
        for (int r = 0; r < rows; r++) {
          org.junit.jupiter.api.Assertions.assertEquals(
              Float.floatToIntBits(expected[r]), Float.floatToIntBits(y[r]), device + ", row " + r);
        }
      }
    }
  }

  /**
   * The gated form's {@code silu(g) · u}: {@code g} and {@code u} the bits of the two products
   * alone, SiLU within a few ulps (the device's {@code exp}), for float16 and bfloat16 rows.
   */
  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({"1, 1", "7, 300", "300, 129", "33, 4099"})
  void aGatedUnitIsSiluOfTheGateTimesTheUp(int rows, int cols) {
    Random random = new Random(rows * 31L + cols);
    float[] a = RowsTest.values(random, 2 * rows * cols);
    float[] x = RowsTest.values(random, cols);
    for (boolean bfloat : new boolean[] {false, true}) {
      short[] a16 = GemmTest.sixteenBits(a, bfloat);
      for (Device device : devices()) {
        float[] both = new float[2 * rows];
        if (bfloat) {
          Gemv.bfloats(device, a16, 2 * rows, cols, x, both, false);
        } else {
          Gemv.halves(device, a16, 2 * rows, cols, x, both, false);
        }
        float[] y = new float[rows];
        Gemv.gated(device, a16, rows, cols, x, y, bfloat);
        float[] onDevice = new float[rows];
        try (dev.kiln.ShortArray da = device.upload(a16);
            FloatArray dx = device.upload(x);
            FloatArray dy = device.floats(rows);
            dev.kiln.Batch batch = device.batch()) {
          Gemv.gated(batch, da, rows, cols, dx, dy, bfloat);
          batch.close();
          dy.download(onDevice);
        }
        for (int r = 0; r < rows; r++) {
          float gate = both[r];
          double expected = gate / (1 + Math.exp(-(double) gate)) * both[rows + r];
          String where = device + ", bfloat " + bfloat + ", row " + r;
          assertEquals(expected, y[r], 1e-5 * Math.abs(expected) + 1e-30, where);
          assertEquals(y[r], onDevice[r], where + " (batch form)");
        }
      }
    }
  }

  /**
   * RMSNorm split across two products: the residual's bits those of the plain accumulating product,
   * the normed vector and the squares' sums Java's in the documented order; the products after it
   * the plain product's bits of the normed vector times the scale from the documented fold of the
   * squares within a few ulps (the device's {@code sqrt} and division), the gated unit's SiLU
   * within 1e-5; float16 and bfloat16 rows.
   */
  @ParameterizedTest(name = "{0} x {1}, then {2} rows")
  @CsvSource({"1, 1, 1", "7, 300, 5", "300, 129, 9", "33, 4099, 40", "2048, 5, 3"})
  void rmsNormSplitAcrossTwoProducts(int hidden, int cols, int out) {
    Random random = new Random(hidden * 7919L + cols);
    float[] first = RowsTest.values(random, hidden * cols);
    float[] second = RowsTest.values(random, 2 * out * hidden);
    float[] x = RowsTest.values(random, cols);
    float[] residual = RowsTest.values(random, hidden);
    float[] weight = RowsTest.values(random, hidden);
    float eps = 0.25f;
    int parts = Gemv.normParts(hidden);
    for (boolean bfloat : new boolean[] {false, true}) {
      short[] a = GemmTest.sixteenBits(first, bfloat);
      short[] b = GemmTest.sixteenBits(second, bfloat);
      for (Device device : devices()) {
        String where = device + ", bfloat " + bfloat;
        float[] y = new float[hidden];
        float[] normed = new float[hidden];
        float[] squares = new float[parts];
        float[] product = new float[out];
        float[] gated = new float[out];
        try (dev.kiln.ShortArray da = device.upload(a);
            dev.kiln.ShortArray db = device.upload(b);
            FloatArray dx = device.upload(x);
            FloatArray dy = device.upload(residual);
            FloatArray dw = device.upload(weight);
            FloatArray dn = device.floats(hidden);
            FloatArray ds = device.floats(parts);
            FloatArray dp = device.floats(out);
            FloatArray dg = device.floats(out);
            dev.kiln.Batch batch = device.batch()) {
          Gemv.accumulateForNorm(batch, da, hidden, cols, dx, dy, dw, dn, ds, bfloat);
          Gemv.normedProduct(batch, db, out, hidden, dn, ds, eps, dp, bfloat);
          Gemv.gatedNormedProduct(batch, db, out, hidden, dn, ds, eps, dg, bfloat);
          batch.close();
          dy.download(y);
          dn.download(normed);
          ds.download(squares);
          dp.download(product);
          dg.download(gated);
        }
        float[] expected = residual.clone();
        if (bfloat) {
          Gemv.bfloats(device, a, hidden, cols, x, expected, true);
        } else {
          Gemv.halves(device, a, hidden, cols, x, expected, true);
        }
        for (int r = 0; r < hidden; r++) {
          assertEquals(expected[r], y[r], where + ", residual " + r);
          assertEquals(expected[r] * weight[r], normed[r], where + ", normed " + r);
        }
        for (int g = 0; g < parts; g++) {
          float sum = 0f;
          for (int r = 8 * g; r < Math.min(hidden, 8 * g + 8); r++) {
            sum += expected[r] * expected[r];
          }
          assertEquals(sum, squares[g], where + ", squares " + g);
        }
        float[] lanes = new float[32];
        for (int p = 0; p < parts; p++) {
          lanes[p % 32] += squares[p];
        }
        for (int s = 16; s > 0; s >>= 1) {
          for (int l = 0; l < s; l++) {
            lanes[l] += lanes[l + s];
          }
        }
        double scale = 1 / Math.sqrt(lanes[0] / hidden + eps);
        float[] dots = new float[2 * out];
        if (bfloat) {
          Gemv.bfloats(device, b, 2 * out, hidden, normed, dots, false);
        } else {
          Gemv.halves(device, b, 2 * out, hidden, normed, dots, false);
        }
        for (int r = 0; r < out; r++) {
          double plain = dots[r] * scale;
          assertEquals(plain, product[r], 1e-6 * Math.abs(plain), where + ", product " + r);
          double gate = dots[r] * scale;
          double unit = gate / (1 + Math.exp(-gate)) * (dots[out + r] * scale);
          assertEquals(unit, gated[r], 1e-5 * Math.abs(unit) + 1e-30, where + ", gated " + r);
        }
      }
    }
  }

  /**
   * The norm-split products' forms that fold each row's lanes in the subgroup give the bits of the
   * ones that fold in workgroup memory: both launched on the CPU backend (its subgroups of 32 run
   * them, though the library picks them only on Vulkan devices with such subgroups, {@link
   * Tuning#foldsInSubgroups}) and on a Vulkan device whose subgroups have 32 lanes (not lavapipe's
   * 8), float16 and bfloat16, at ragged shapes whose rows are whole 16-byte copies, as the forms
   * that fold in the subgroup require.
   */
  @ParameterizedTest(name = "{0} x {1}, then {2} rows")
  @CsvSource({"296, 136, 9", "40, 4104, 33", "8, 8, 3"})
  void subgroupFoldsGiveTheWorkgroupMemorysBits(int hidden, int cols, int out) {
    assertEquals(false, Tuning.foldsInSubgroups(cpu));
    assertEquals(vulkan.subgroupSize() == GemvKernels.LANES, Tuning.foldsInSubgroups(vulkan));
    Random random = new Random(hidden * 31L + cols);
    float[] first = RowsTest.values(random, hidden * cols);
    float[] second = RowsTest.values(random, 2 * out * hidden);
    float[] x = RowsTest.values(random, cols);
    float[] residual = RowsTest.values(random, hidden);
    float[] weight = RowsTest.values(random, hidden);
    int parts = Gemv.normParts(hidden);
    dev.kiln.Grid residualRows = dev.kiln.Grid.of(GemvKernels.LANES, hidden);
    dev.kiln.Grid outRows = dev.kiln.Grid.of(GemvKernels.LANES, out);
    for (int bfloat = 0; bfloat < 2; bfloat++) {
      short[] a = GemmTest.sixteenBits(first, bfloat == 1);
      short[] b = GemmTest.sixteenBits(second, bfloat == 1);
      for (Device device : devices()) {
        if (device.subgroupSize() != GemvKernels.LANES) {
          continue;
        }
        int[][] bits = new int[2][];
        for (int inSubgroups = 0; inSubgroups < 2; inSubgroups++) {
          try (dev.kiln.ShortArray da = device.upload(a);
              dev.kiln.ShortArray db = device.upload(b);
              FloatArray dx = device.upload(x);
              FloatArray dy = device.upload(residual);
              FloatArray dw = device.upload(weight);
              FloatArray dn = device.floats(hidden);
              FloatArray ds = device.floats(parts);
              FloatArray dp = device.floats(out);
              FloatArray dg = device.floats(out)) {
            try (dev.kiln.Batch batch = device.batch()) {
              int octets = cols / GemvKernels.QUAD_SHORTS;
              int outOctets = hidden / GemvKernels.QUAD_SHORTS;
              if (inSubgroups == 1 && bfloat == 1) {
                GemvKernelsKernels.accumulateForNormBfloatsInSubgroups(
                    batch, residualRows, da, dx, dy, dw, dn, ds, hidden, octets);
                GemvKernelsKernels.normedProductBfloatsInSubgroups(
                    batch, outRows, db, dn, ds, dp, out, outOctets, parts, 0.25f);
                GemvKernelsKernels.gatedNormedProductBfloatsInSubgroups(
                    batch, outRows, db, dn, ds, dg, out, outOctets, parts, 0.25f);
              } else if (inSubgroups == 1) {
                GemvKernelsKernels.accumulateForNormInSubgroups(
                    batch, residualRows, da, dx, dy, dw, dn, ds, hidden, octets);
                GemvKernelsKernels.normedProductInSubgroups(
                    batch, outRows, db, dn, ds, dp, out, outOctets, parts, 0.25f);
                GemvKernelsKernels.gatedNormedProductInSubgroups(
                    batch, outRows, db, dn, ds, dg, out, outOctets, parts, 0.25f);
              } else {
                GemvKernelsKernels.accumulateForNorm(
                    batch, residualRows, da, dx, dy, dw, dn, ds, hidden, cols, bfloat);
                GemvKernelsKernels.normedProduct(
                    batch, outRows, db, dn, ds, dp, out, hidden, parts, 0.25f, bfloat);
                GemvKernelsKernels.gatedNormedProduct(
                    batch, outRows, db, dn, ds, dg, out, hidden, parts, 0.25f, bfloat);
              }
            }
            bits[inSubgroups] =
                java.util.stream.Stream.of(dy, dn, ds, dp, dg)
                    .flatMapToInt(
                        array -> {
                          float[] values = array.toArray();
                          return java.util.stream.IntStream.range(0, values.length)
                              .map(i -> Float.floatToRawIntBits(values[i]));
                        })
                    .toArray();
          }
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            bits[0], bits[1], device + ", bfloat " + bfloat);
      }
    }
  }

  /**
   * The general products' forms that fold each row's lanes in the subgroup ({@code
   * halvesInSubgroups}, {@code bfloatsInSubgroups}) give the bits of {@code halves} and {@code
   * bfloats}: parts of arrays (offsets, a row stride past the row), rows of any length (a partial
   * chunk where it is no multiple of 16), overwriting and accumulating; on the CPU backend's
   * subgroups of 32 and on a Vulkan device whose subgroups have 32 lanes.
   */
  @ParameterizedTest(name = "{0} x {1}, stride {2}")
  @CsvSource({"7, 1000, 1003", "33, 4099, 4099", "1, 8, 24", "130, 136, 136"})
  void generalSubgroupFoldsGiveTheWorkgroupMemorysBits(int rows, int cols, int lda) {
    Random random = new Random(rows * 31L + cols);
    float[] matrix = RowsTest.values(random, 5 + rows * lda);
    float[] x = RowsTest.values(random, 3 + cols);
    float[] start = RowsTest.values(random, 2 + rows);
    dev.kiln.Grid grid = dev.kiln.Grid.of(GemvKernels.LANES, rows);
    for (int bfloat = 0; bfloat < 2; bfloat++) {
      short[] a = GemmTest.sixteenBits(matrix, bfloat == 1);
      for (Device device : devices()) {
        if (device.subgroupSize() != GemvKernels.LANES) {
          continue;
        }
        for (int accumulate = 0; accumulate < 2; accumulate++) {
          int[][] bits = new int[2][];
          for (int inSubgroups = 0; inSubgroups < 2; inSubgroups++) {
            try (dev.kiln.ShortArray da = device.upload(a);
                FloatArray dx = device.upload(x);
                FloatArray dy = device.upload(start)) {
              try (dev.kiln.Batch batch = device.batch()) {
                if (inSubgroups == 1 && bfloat == 1) {
                  GemvKernelsKernels.bfloatsInSubgroups(
                      batch, grid, da, dx, dy, rows, cols, 5, lda, 3, 2, accumulate);
                } else if (inSubgroups == 1) {
                  GemvKernelsKernels.halvesInSubgroups(
                      batch, grid, da, dx, dy, rows, cols, 5, lda, 3, 2, accumulate);
                } else if (bfloat == 1) {
                  GemvKernelsKernels.bfloats(
                      batch, grid, da, dx, dy, rows, cols, 5, lda, 3, 2, accumulate);
                } else {
                  GemvKernelsKernels.halves(
                      batch, grid, da, dx, dy, rows, cols, 5, lda, 3, 2, accumulate);
                }
              }
              float[] values = dy.toArray();
              bits[inSubgroups] =
                  java.util.stream.IntStream.range(0, values.length)
                      .map(i -> Float.floatToRawIntBits(values[i]))
                      .toArray();
            }
          }
          org.junit.jupiter.api.Assertions.assertArrayEquals(
              bits[0], bits[1], device + ", bfloat " + bfloat + ", accumulate " + accumulate);
          assertEquals(
              Float.floatToRawIntBits(start[0]), bits[1][0], "y before its offset is left alone");
        }
      }
    }
  }

  /**
   * The split norm's arrays too short are Java's exception, naming the array: the sums of squares
   * (one per 8 rows of the residual), the norm's weights, the weighted vector.
   */
  @Test
  void theSplitNormsArraysTooShortAreRefused() {
    Device device = devices()[0];
    try (dev.kiln.ShortArray a = device.shorts(9 * 4);
        FloatArray x = device.floats(4);
        FloatArray y = device.floats(9);
        FloatArray nine = device.floats(9);
        FloatArray eight = device.floats(8);
        FloatArray one = device.floats(1);
        FloatArray two = device.floats(2);
        dev.kiln.Batch batch = device.batch()) {
      assertEquals(2, Gemv.normParts(9));
      String[][] cases = {
        {"squares holds 1 elements, and 2 are needed", "squares"},
        {"weight holds 8 elements, and 9 are needed", "weight"},
        {"normed holds 8 elements, and 9 are needed", "normed"}
      };
      for (String[] c : cases) {
        IndexOutOfBoundsException refused =
            org.junit.jupiter.api.Assertions.assertThrows(
                IndexOutOfBoundsException.class,
                () ->
                    Gemv.accumulateForNorm(
                        batch,
                        a,
                        9,
                        4,
                        x,
                        y,
                        c[1].equals("weight") ? eight : nine,
                        c[1].equals("normed") ? eight : nine,
                        c[1].equals("squares") ? one : two,
                        false));
        assertEquals(c[0], refused.getMessage());
      }
      try (dev.kiln.ShortArray b = device.shorts(2 * 3 * 9)) {
        IndexOutOfBoundsException product =
            org.junit.jupiter.api.Assertions.assertThrows(
                IndexOutOfBoundsException.class,
                () -> Gemv.normedProduct(batch, b, 3, 9, nine, one, 1e-5f, y, false));
        assertEquals("squares holds 1 elements, and 2 are needed", product.getMessage());
        IndexOutOfBoundsException gated =
            org.junit.jupiter.api.Assertions.assertThrows(
                IndexOutOfBoundsException.class,
                () -> Gemv.gatedNormedProduct(batch, b, 3, 9, nine, one, 1e-5f, y, false));
        assertEquals("squares holds 1 elements, and 2 are needed", gated.getMessage());
      }
    }
  }

  /** The gated form's matrix holds twice the rows: one row short is Java's exception. */
  @Test
  void aGatedUnitNeedsTwiceTheRows() {
    for (Device device : devices()) {
      org.junit.jupiter.api.Assertions.assertThrows(
          IndexOutOfBoundsException.class,
          () ->
              Gemv.gated(
                  device, new short[2 * 3 * 8 - 1], 3, 8, new float[8], new float[3], false));
    }
  }

  /**
   * The 1B decode's GEMVs run without device checks: at each of its shapes, every launch proof of
   * the float16 product and of the norm-split forms that fold in the subgroup holds (the forms'
   * reads of the matrix among them: a proof that fails runs the whole launch checked, 4 % of the
   * decode's GEMV time on the H100, PERFORMANCE.md).
   */
  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({"2048, 2048", "3072, 2048", "8192, 2048", "2048, 8192", "128256, 2048"})
  void theDecodesShapesSettleTheirChecks(int rows, int cols) throws java.io.IOException {
    int parts = Gemv.normParts(cols);
    int octets = cols / GemvKernels.QUAD_SHORTS;
    // parameter index -> value: the buffers' lengths, then the scalars, as each kernel lists them
    java.util.Map<String, long[]> kernels = new java.util.LinkedHashMap<>();
    // a, x, y, rows, cols, offsetA, lda, offsetX, offsetY, accumulate
    kernels.put(
        "halves", new long[] {(long) rows * cols, cols, rows, rows, cols, 0, cols, 0, 0, 0});
    for (String element : new String[] {"", "Bfloats"}) {
      // a, x, y, weight, normed, squares, rows, octets
      kernels.put(
          "accumulateForNorm" + element + "InSubgroups",
          new long[] {
            (long) rows * cols, cols, rows, rows, rows, Gemv.normParts(rows), rows, octets
          });
      // a, normed, squares, y, rows, octets, parts, eps (no int)
      kernels.put(
          "normedProduct" + element + "InSubgroups",
          new long[] {(long) rows * cols, cols, parts, rows, rows, octets, parts, 0});
      kernels.put(
          "gatedNormedProduct" + element + "InSubgroups",
          new long[] {2L * rows * cols, cols, parts, rows, rows, octets, parts, 0});
    }
    for (var kernel : kernels.entrySet()) {
      String resource =
          dev.kiln.abi.DescriptionCodec.resourceOf(
              "dev/kiln/library/GemvKernels." + kernel.getKey() + ".spv");
      byte[] bytes;
      try (java.io.InputStream in =
          GemvKernels.class.getClassLoader().getResourceAsStream(resource)) {
        bytes = in.readAllBytes();
      }
      long[] values = kernel.getValue();
      dev.kiln.abi.LaunchValues launch = new RowsLaunch(values, rows);
      var proofs = dev.kiln.abi.DescriptionCodec.read(bytes).proofs();
      assertTrue(
          proofs.stream().anyMatch(proof -> proof.access().startsWith("a[")),
          kernel.getKey() + "'s reads of its matrix settle at a launch (no plain checks)");
      for (dev.kiln.abi.LaunchProof proof : proofs) {
        assertTrue(
            proof.holds(launch),
            kernel.getKey() + " at " + rows + " x " + cols + ": " + proof.access());
      }
    }
  }

  /** A launch of the GEMV grid, {@code LANES} x {@code rows}, its parameters' values given. */
  private record RowsLaunch(long[] values, int rows) implements dev.kiln.abi.LaunchValues {
    @Override
    public long scalar(int param) {
      return values[param];
    }

    @Override
    public long length(int param) {
      return values[param];
    }

    @Override
    public long grid(int arm, int axis) {
      return arm > 0 ? UNKNOWN : axis == 0 ? GemvKernels.LANES : axis == 1 ? rows : 1;
    }

    @Override
    public long roundedGrid(int arm, int axis) {
      return axis == 1
          ? (rows + GemvKernels.ROWS - 1) / GemvKernels.ROWS * GemvKernels.ROWS
          : grid(0, axis);
    }

    @Override
    public long dispatchedIds(int axis) {
      return roundedGrid(0, axis);
    }

    @Override
    public long workgroupSize(int axis) {
      return axis == 0 ? GemvKernels.LANES : axis == 1 ? GemvKernels.ROWS : 1;
    }
  }
}
