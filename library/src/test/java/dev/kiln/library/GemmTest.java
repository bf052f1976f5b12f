package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.matrix.Matrices;
import dev.kiln.matrix.MatrixElement;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Gemm} at ragged shapes and of whole blocks, each operand plain or transposed: on the CPU
 * backend the bits of Java's {@code Math.fma} loop and the epilogue in Java's float arithmetic; on
 * Vulkan (lavapipe does not fuse) within a bound of the double product. The epilogues (bias per row
 * and per column, ReLU, GELU, SiLU, a residual), β = 0 not reading {@code c}, device arrays, and
 * the checks.
 */
class GemmTest extends LibraryDevices {
  @ParameterizedTest(name = "{0} x {1} x {2}, transA {3}, transB {4}")
  @CsvSource({
    "1, 1, 1, false, false", "7, 3, 5, true, false", "129, 77, 200, false, true",
    "130, 129, 9, true, true", "33, 260, 1, false, false", "5, 6, 0, false, false",
    "200, 131, 70, true, false", "132, 260, 20, false, false", "36, 132, 12, true, true",
    "140, 8, 44, true, false", "4, 136, 9, false, true", "128, 256, 40, false, false",
    "256, 128, 16, true, true", "128, 128, 24, true, false", "128, 128, 8, false, true"
  })
  void productsAreJavasFmaLoops(int m, int n, int k, boolean transA, boolean transB) {
    Random random = new Random(m * 10007L + n * 101L + k);
    float[] a = RowsTest.values(random, m * k);
    float[] b = RowsTest.values(random, k * n);
    float[] c0 = RowsTest.values(random, m * n);
    for (float beta : new float[] {0f, 0.5f}) {
      float[] stale = c0.clone();
      if (beta == 0f && stale.length > 0) {
        stale[0] = Float.NaN; // not read where β is 0
      }
      for (Device device : devices()) {
        float[] c = stale.clone();
        Gemm.floats(device, m, n, k, 1.5f, a, transA, b, transB, beta, c);
        for (int i = 0; i < m; i++) {
          for (int j = 0; j < n; j++) {
            float sum = 0f;
            double exact = 0;
            double magnitude = 0;
            for (int p = 0; p < k; p++) {
              float x = transA ? a[p * m + i] : a[i * k + p];
              float y = transB ? b[j * k + p] : b[p * n + j];
              sum = Math.fma(x, y, sum);
              exact += (double) x * y;
              magnitude += Math.abs((double) x * y);
            }
            float expected = 1.5f * sum;
            if (beta != 0f) {
              expected += beta * stale[i * n + j];
            }
            String where = device + ", β " + beta + ", c[" + i + "][" + j + "]";
            if (device == cpu) {
              assertEquals(
                  Float.floatToIntBits(expected), Float.floatToIntBits(c[i * n + j]), where);
            } else {
              double reference = 1.5 * exact + (beta != 0f ? beta * stale[i * n + j] : 0);
              double bound = (k + 2) * 0x1p-23 * (1.5 * magnitude + Math.abs(reference));
              assertTrue(Math.abs(c[i * n + j] - reference) <= bound, where);
            }
          }
        }
      }
    }
  }

  /**
   * A product of few blocks and a deep k sums k in slices (split-k): on the CPU backend each entry
   * is the bits of Java's {@code Math.fma} loop over each slice, the slices added in order, then
   * the epilogue; on Vulkan within the bound of the double product. Both slice kernels (factors in
   * quads and not), each layout, an epilogue and β alone, a last slice shorter than the others.
   */
  @ParameterizedTest(name = "{0} x {1} x {2}, transA {3}, transB {4}")
  @CsvSource({
    "70, 50, 600, false, false", "129, 77, 400, true, false", "7, 261, 300, false, true",
    "33, 8, 1100, true, true", "36, 132, 260, false, false", "1, 1, 700, false, false"
  })
  void fewBlocksSumKInSlices(int m, int n, int k, boolean transA, boolean transB) {
    int slices = Tuning.gemmSlices(m, n, k);
    assertTrue(slices > 1, "the shape splits k: " + slices);
    int depth = Gemm.sliceDepth(k, slices, GemmKernels.DEPTH);
    Random random = new Random(m * 7L + n * 1009L + k);
    float[] a = RowsTest.values(random, m * k);
    float[] b = RowsTest.values(random, k * n);
    float[] c0 = RowsTest.values(random, m * n);
    float[] bias = RowsTest.values(random, n);
    for (boolean plain : new boolean[] {true, false}) {
      Gemm.Epilogue<float[]> epilogue =
          plain ? Gemm.Epilogue.forArrays() : Gemm.Epilogue.forArrays().biasPerColumn(bias).relu();
      float beta = plain ? 0.5f : 0f;
      for (Device device : devices()) {
        float[] c = c0.clone();
        Gemm.floats(device, m, n, k, 1.5f, a, transA, b, transB, beta, c, epilogue);
        assertSlicedProduct(
            device + ", plain " + plain,
            device == cpu,
            new Product(m, n, k, a, transA, b, transB, depth),
            1.5f,
            beta,
            c0,
            plain ? null : bias,
            false,
            c);
      }
    }
  }

  /**
   * The tensor-core kernel sums k in slices as the float kernel does, by its own rule ({@code
   * Tuning.tileGemmSlices}: its blocks of 128 x 256, a grid of one workgroup a multiprocessor,
   * slices a multiple of its 32 of k per stage): on the CPU backend the bits of the sliced loop of
   * the decoded factors; on a device that multiplies tiles in hardware within the bound of the
   * double product. Factors in octets (the sliced kernels' contract), each layout, float16 and
   * bfloat16.
   */
  @ParameterizedTest(name = "{0} x {1} x {2}, transA {3}, transB {4}")
  @CsvSource({"40, 24, 600, false, false", "136, 16, 1000, true, true", "9, 264, 520, false, true"})
  void tensorCoresSumFewBlocksInSlices(int m, int n, int k, boolean transA, boolean transB) {
    int slices = Tuning.tileGemmSlices(m, n, k);
    assertTrue(slices > 1, "the shape splits k: " + slices);
    int depth = Gemm.sliceDepth(k, slices, Tuning.TILE_GEMM_DEPTH);
    Random random = new Random(m * 5L + n * 211L + k);
    float[] c0 = RowsTest.values(random, m * n);
    float[] bias = RowsTest.values(random, m);
    for (boolean bfloat : new boolean[] {false, true}) {
      short[] a16 = sixteenBits(RowsTest.values(random, m * k), bfloat);
      short[] b16 = sixteenBits(RowsTest.values(random, k * n), bfloat);
      Product product =
          new Product(m, n, k, decoded(a16, bfloat), transA, decoded(b16, bfloat), transB, depth);
      for (Device device : devices()) {
        if (device != cpu && !onTiles(device, bfloat)) {
          continue; // never handed the tensor-core kernel
        }
        for (boolean plain : new boolean[] {true, false}) {
          float[] c = c0.clone();
          Gemm.Epilogue<float[]> epilogue =
              plain ? Gemm.Epilogue.forArrays() : Gemm.Epilogue.forArrays().biasPerRow(bias).relu();
          float beta = plain ? 0.5f : 0f;
          Gemm.shorts(
              device, m, n, k, 0.75f, a16, transA, b16, transB, beta, c, epilogue, bfloat, true);
          assertSlicedProduct(
              device + ", bfloat " + bfloat + ", plain " + plain,
              device == cpu,
              product,
              0.75f,
              beta,
              c0,
              plain ? null : bias,
              true,
              c);
        }
      }
    }
  }

  /** An m x n x k product of {@code op(a)} and {@code op(b)}, its k summed in slices of depth. */
  private record Product(
      int m, int n, int k, float[] a, boolean transA, float[] b, boolean transB, int depth) {
    float x(int i, int p) {
      return transA ? a[p * m + i] : a[i * k + p];
    }

    float y(int p, int j) {
      return transB ? b[j * k + p] : b[p * n + j];
    }
  }

  /**
   * {@code c} is {@code α · op(a) · op(b)} with {@code + β · c0}, or where {@code bias} is not null
   * (a bias per row where {@code perRow}, else per column) {@code max(α · sum + bias, 0)}: on the
   * CPU backend ({@code exact}) the bits of the fused loop over each slice, the slices added in
   * order; elsewhere within a bound of the double product.
   */
  private static void assertSlicedProduct(
      String what,
      boolean exact,
      Product product,
      float alpha,
      float beta,
      float[] c0,
      float[] bias,
      boolean perRow,
      float[] c) {
    int m = product.m();
    int n = product.n();
    int k = product.k();
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        float sum = 0f;
        double sumExact = 0;
        double magnitude = 0;
        for (int begin = 0; begin < k; begin += product.depth()) {
          float slice = 0f;
          for (int p = begin; p < Math.min(k, begin + product.depth()); p++) {
            float x = product.x(i, p);
            float y = product.y(p, j);
            slice = Math.fma(x, y, slice);
            sumExact += (double) x * y;
            magnitude += Math.abs((double) x * y);
          }
          sum = begin == 0 ? slice : sum + slice;
        }
        float expected = alpha * sum;
        double reference = alpha * sumExact;
        float added = bias == null ? 0f : bias[perRow ? i : j];
        if (bias == null) {
          expected += beta * c0[i * n + j];
          reference += beta * c0[i * n + j];
        } else {
          expected = Math.max(expected + added, 0f);
          reference = Math.max(reference + added, 0);
        }
        String where = what + ", c[" + i + "][" + j + "]";
        if (exact) {
          assertEquals(Float.floatToIntBits(expected), Float.floatToIntBits(c[i * n + j]), where);
        } else {
          double bound =
              (k + 4) * 0x1p-23 * (alpha * magnitude + Math.abs(reference) + Math.abs(added))
                  + 0x1p-21 * Math.abs(c0[i * n + j]);
          assertTrue(Math.abs(c[i * n + j] - reference) <= bound, where + " = " + c[i * n + j]);
        }
      }
    }
  }

  /** Each activation on both kernels: rows of any length, and rows of multiples of 4 floats. */
  @ParameterizedTest(name = "{0}, 37 x {1} x {2}")
  @CsvSource({
    "none, 150, 19",
    "relu, 150, 19",
    "gelu, 150, 19",
    "silu, 150, 19",
    "none, 152, 20",
    "relu, 152, 20",
    "gelu, 152, 20",
    "silu, 152, 20"
  })
  void epiloguesFollowTheProductInOrder(String activation, int n, int k) {
    int m = 37;
    Random random = new Random(activation.hashCode() + n);
    float[] a = RowsTest.values(random, m * k);
    float[] b = RowsTest.values(random, k * n);
    float[] rowBias = RowsTest.values(random, m);
    float[] columnBias = RowsTest.values(random, n);
    float[] residual = RowsTest.values(random, m * n);
    for (boolean perRow : new boolean[] {true, false}) {
      Gemm.Epilogue<float[]> epilogue = Gemm.Epilogue.forArrays().residual(residual);
      epilogue = perRow ? epilogue.biasPerRow(rowBias) : epilogue.biasPerColumn(columnBias);
      epilogue =
          switch (activation) {
            case "relu" -> epilogue.relu();
            case "gelu" -> epilogue.gelu();
            case "silu" -> epilogue.silu();
            default -> epilogue;
          };
      for (Device device : devices()) {
        float[] c = new float[m * n];
        Gemm.floats(device, m, n, k, 1f, a, false, b, false, 0f, c, epilogue);
        for (int i = 0; i < m; i++) {
          for (int j = 0; j < n; j++) {
            float sum = 0f;
            for (int p = 0; p < k; p++) {
              sum = Math.fma(a[i * k + p], b[p * n + j], sum);
            }
            float v = sum + (perRow ? rowBias[i] : columnBias[j]);
            v =
                switch (activation) {
                  case "relu" -> Math.max(v, 0f);
                  case "gelu" ->
                      0.5f * v * (1f + (float) Math.tanh(0.7978846f * (v + 0.044715f * v * v * v)));
                  case "silu" -> v / (1f + (float) Math.exp(-v));
                  default -> v;
                };
            v += residual[i * n + j];
            String where = device + ", " + activation + ", c[" + i + "][" + j + "]";
            float tolerance = device == cpu && activation.matches("none|relu") ? 0f : 2e-5f;
            assertEquals(v, c[i * n + j], tolerance * (1 + Math.abs(v)), where);
          }
        }
      }
    }
  }

  /** Whether {@link Gemm}'s 16-bit products run on tensor cores on {@code device}. */
  private static boolean onTiles(Device device, boolean bfloat) {
    return device.multipliesTiles(bfloat ? MatrixElement.BFLOAT16 : MatrixElement.FLOAT16)
        && device.subgroupSize() == 32;
  }

  /**
   * {@code actual} is {@code expected}, the float product of {@code a} and {@code b} transposed
   * ({@code k} columns each): bit for bit where the same register kernel summed both, else ({@code
   * onTiles}: tensor cores, which sum in another order) within twice {@link Matrices#errorBound}.
   */
  private static void assertSameProducts(
      String where,
      float[] a,
      float[] b,
      int k,
      float[] expected,
      float[] actual,
      boolean onTiles) {
    if (!onTiles) {
      org.junit.jupiter.api.Assertions.assertArrayEquals(expected, actual, where);
      return;
    }
    int n = k == 0 ? 0 : b.length / k;
    for (int e = 0; e < expected.length; e++) {
      double magnitude = 0;
      for (int p = 0; p < k; p++) {
        magnitude += Math.abs((double) a[e / n * k + p] * b[e % n * k + p]);
      }
      assertEquals(expected[e], actual[e], 2 * Matrices.errorBound(k, magnitude), where + ", " + e);
    }
  }

  /**
   * float16 and bfloat16 factors are decoded exactly: the product of their floats (bit for bit
   * where the register kernels run; where tensor cores do, within the bound of their sums).
   */
  @ParameterizedTest(name = "{0} x {1} x {2}")
  @CsvSource({"1, 1, 1", "131, 70, 33", "9, 140, 130"})
  void sixteenBitFactorsAreTheirFloatsProducts(int m, int n, int k) {
    Random random = new Random(m + 31L * n + 977L * k);
    float[] a = RowsTest.values(random, m * k);
    float[] b = RowsTest.values(random, k * n);
    for (boolean bfloat : new boolean[] {false, true}) {
      short[] a16 = new short[a.length];
      short[] b16 = new short[b.length];
      float[] aValues = new float[a.length];
      float[] bValues = new float[b.length];
      for (int i = 0; i < a.length; i++) {
        a16[i] =
            bfloat ? (short) (Float.floatToRawIntBits(a[i]) >>> 16) : Float.floatToFloat16(a[i]);
        aValues[i] = bfloat ? Float.intBitsToFloat(a16[i] << 16) : Float.float16ToFloat(a16[i]);
      }
      for (int i = 0; i < b.length; i++) {
        b16[i] =
            bfloat ? (short) (Float.floatToRawIntBits(b[i]) >>> 16) : Float.floatToFloat16(b[i]);
        bValues[i] = bfloat ? Float.intBitsToFloat(b16[i] << 16) : Float.float16ToFloat(b16[i]);
      }
      for (Device device : devices()) {
        float[] expected = new float[m * n];
        float[] c = new float[m * n];
        Gemm.floats(device, m, n, k, 1f, aValues, false, bValues, true, 0f, expected);
        if (bfloat) {
          Gemm.bfloats(
              device, m, n, k, 1f, a16, false, b16, true, 0f, c, Gemm.Epilogue.forArrays());
        } else {
          Gemm.halves(device, m, n, k, 1f, a16, false, b16, true, 0f, c, Gemm.Epilogue.forArrays());
        }
        boolean tiles = onTiles(device, bfloat);
        assertSameProducts(device + ", bfloat " + bfloat, aValues, bValues, k, expected, c, tiles);
        try (dev.kiln.ShortArray da = device.upload(a16);
            dev.kiln.ShortArray db = device.upload(b16);
            FloatArray dc = device.floats(m * n)) {
          Gemm.shorts(
              device, m, n, k, 1f, da, false, db, true, 0f, dc, Gemm.Epilogue.forDevice(), bfloat);
          assertSameProducts(
              device + " arrays", aValues, bValues, k, expected, dc.toArray(), tiles);
        }
      }
    }
  }

  /**
   * The tensor-core kernel ({@link TileGemmKernels}) at ragged shapes, each operand plain or
   * transposed, with α and β, with an epilogue and without (where its blocks inside {@code c} store
   * their tiles from the registers, and those at the edges through workgroup memory): on the CPU
   * backend (its kernel methods, lanes side by side) the bits of the register-tiled product of the
   * decoded factors, as both sum exact products in k order; on a device that multiplies tiles in
   * hardware within {@code Matrices.errorBound} of the double product (a device without is never
   * handed this kernel: {@code Device.multipliesTiles}).
   */
  @ParameterizedTest(name = "{0} x {1} x {2}, transA {3}, transB {4}")
  @CsvSource({
    "1, 1, 1, false, false", "130, 257, 33, false, false", "129, 300, 40, true, false",
    "200, 17, 70, false, true", "37, 260, 129, true, true", "128, 256, 32, false, false",
    "256, 512, 48, false, true", "136, 264, 72, true, false", "5, 9, 0, true, false"
  })
  void tensorCoresGiveTheProductOfTheDecodedFactors(
      int m, int n, int k, boolean transA, boolean transB) {
    Random random = new Random(m * 7919L + n * 31L + k + (transA ? 5 : 0) + (transB ? 11 : 0));
    float[] bias = RowsTest.values(random, m);
    float[] residual = RowsTest.values(random, m * n);
    float[] c0 = RowsTest.values(random, m * n);
    for (int run = 0; run < 4; run++) {
      boolean bfloat = run % 2 == 1;
      boolean plain = run >= 2; // alpha and beta only
      short[] a16 = sixteenBits(RowsTest.values(random, m * k), bfloat);
      short[] b16 = sixteenBits(RowsTest.values(random, k * n), bfloat);
      float[] a = decoded(a16, bfloat);
      float[] b = decoded(b16, bfloat);
      float[] expected = c0.clone();
      Gemm.Epilogue<float[]> epilogue =
          plain
              ? Gemm.Epilogue.forArrays()
              : Gemm.Epilogue.forArrays().biasPerRow(bias).relu().residual(residual);
      Gemm.floats(cpu, m, n, k, 0.75f, a, transA, b, transB, 0.5f, expected, epilogue);
      float[] onCpu = c0.clone();
      Gemm.shorts(
          cpu, m, n, k, 0.75f, a16, transA, b16, transB, 0.5f, onCpu, epilogue, bfloat, true);
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          expected, onCpu, "CPU, bfloat " + bfloat + ", plain " + plain);
      MatrixElement element = bfloat ? MatrixElement.BFLOAT16 : MatrixElement.FLOAT16;
      if (!vulkan.multipliesTiles(element)) {
        continue;
      }
      float[] onGpu = c0.clone();
      Gemm.shorts(
          vulkan, m, n, k, 0.75f, a16, transA, b16, transB, 0.5f, onGpu, epilogue, bfloat, true);
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          double exact = 0;
          double magnitude = 0;
          for (int p = 0; p < k; p++) {
            double product =
                (double) (transA ? a[p * m + i] : a[i * k + p])
                    * (transB ? b[j * k + p] : b[p * n + j]);
            exact += product;
            magnitude += Math.abs(product);
          }
          double scaled = 0.75 * exact + 0.5 * c0[i * n + j];
          double reference = plain ? scaled : Math.max(scaled + bias[i], 0) + residual[i * n + j];
          double bound =
              0.75 * Matrices.errorBound(k, magnitude)
                  + 0x1p-21
                      * (0.75 * magnitude
                          + Math.abs(c0[i * n + j])
                          + (plain ? 0 : Math.abs(bias[i]) + Math.abs(residual[i * n + j])));
          assertTrue(
              Math.abs(onGpu[i * n + j] - reference) <= bound,
              vulkan
                  + ", bfloat "
                  + bfloat
                  + ", plain "
                  + plain
                  + ", c["
                  + i
                  + "]["
                  + j
                  + "] = "
                  + onGpu[i * n + j]
                  + ", reference "
                  + reference);
        }
      }
    }
  }

  static short[] sixteenBits(float[] values, boolean bfloat) {
    short[] bits = new short[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] =
          bfloat
              ? (short) (Float.floatToRawIntBits(values[i]) >>> 16)
              : Float.floatToFloat16(values[i]);
    }
    return bits;
  }

  static float[] decoded(short[] bits, boolean bfloat) {
    float[] values = new float[bits.length];
    for (int i = 0; i < bits.length; i++) {
      values[i] = bfloat ? Float.intBitsToFloat(bits[i] << 16) : Float.float16ToFloat(bits[i]);
    }
    return values;
  }

  /**
   * Parts of larger arrays, as BLAS takes them (offsets, rows further apart than their length, NaN
   * between them, which no product may read): the bits of the same product of whole arrays, for
   * floats (the quads kernel where every offset and distance is a multiple of 4, the other where
   * not; with the epilogue, and with β alone) and 16-bit factors (the register kernel, and the
   * tensor-core one on the CPU), the residual laid out as {@code c}, and {@code c}'s gaps
   * untouched.
   */
  @ParameterizedTest(name = "{0} x {1} x {2}, transA {3}, transB {4}, offsets {5}, gap {6}")
  @CsvSource({
    "36, 44, 20, false, false, 4, 8",
    "37, 45, 19, true, true, 3, 5",
    "130, 9, 40, true, false, 0, 1",
    "8, 260, 33, false, true, 8, 4",
    "16, 24, 40, true, false, 8, 8",
    "37, 45, 21, false, false, 4, 3",
    "35, 131, 23, true, true, 8, 1",
    "128, 128, 16, false, true, 4, 8",
    "20, 24, 300, false, true, 4, 8",
    "21, 9, 300, true, false, 3, 5"
  })
  void partsOfArraysAsBlasTakesThem(
      int m, int n, int k, boolean transA, boolean transB, int offset, int gap) {
    Random random = new Random(m * 131L + n * 17L + k + offset * 7L + gap);
    int rowsA = transA ? k : m;
    int lengthA = transA ? m : k;
    int rowsB = transB ? n : k;
    int lengthB = transB ? k : n;
    float[] a = RowsTest.values(random, rowsA * lengthA);
    float[] b = RowsTest.values(random, rowsB * lengthB);
    float[] bias = RowsTest.values(random, n);
    float[] residual = RowsTest.values(random, m * n);
    float[] expected = new float[m * n];
    Gemm.Epilogue<float[]> whole = Gemm.Epilogue.forArrays().biasPerColumn(bias).residual(residual);
    for (Device device : devices()) {
      Gemm.floats(device, m, n, k, 1.25f, a, transA, b, transB, 0f, expected, whole);
      float[] scaled = residual.clone(); // no epilogue but β: the kernels storing from registers
      Gemm.floats(device, m, n, k, 1.25f, a, transA, b, transB, 0.5f, scaled);
      try (FloatArray da = device.upload(spread(a, rowsA, lengthA, offset, gap, Float.NaN));
          FloatArray db = device.upload(spread(b, rowsB, lengthB, offset, gap, Float.NaN));
          FloatArray dBias = device.upload(bias);
          FloatArray dResidual = device.upload(spread(residual, m, n, offset, gap, Float.NaN))) {
        for (boolean plain : new boolean[] {false, true}) {
          float[] initial = plain ? residual : new float[m * n];
          try (FloatArray dc = device.upload(spread(initial, m, n, offset, gap, -7f));
              dev.kiln.Batch batch = device.batch()) {
            Gemm.floats(
                batch,
                m,
                n,
                k,
                1.25f,
                da,
                offset,
                lengthA + gap,
                transA,
                db,
                offset,
                lengthB + gap,
                transB,
                plain ? 0.5f : 0f,
                dc,
                offset,
                n + gap,
                plain
                    ? Gemm.Epilogue.forDevice()
                    : Gemm.Epilogue.forDevice().biasPerColumn(dBias).residual(dResidual));
            batch.submit();
            org.junit.jupiter.api.Assertions.assertArrayEquals(
                spread(plain ? scaled : expected, m, n, offset, gap, -7f),
                dc.toArray(),
                device + ", floats" + (plain ? ", β alone" : ""));
          }
        }
      }
    }
    for (boolean bfloat : new boolean[] {false, true}) {
      short[] a16 = sixteenBits(a, bfloat);
      short[] b16 = sixteenBits(b, bfloat);
      for (Device device : devices()) {
        for (boolean tiles : device == cpu ? new boolean[] {false, true} : new boolean[] {false}) {
          float[] wholeC = new float[m * n];
          Gemm.shorts(
              device, m, n, k, 1.25f, a16, transA, b16, transB, 0f, wholeC, whole, bfloat, tiles);
          try (dev.kiln.ShortArray da =
                  device.upload(spreadShorts(a16, rowsA, lengthA, offset, gap));
              dev.kiln.ShortArray db =
                  device.upload(spreadShorts(b16, rowsB, lengthB, offset, gap));
              FloatArray dc = device.upload(spread(new float[m * n], m, n, offset, gap, -7f));
              FloatArray dBias = device.upload(bias);
              FloatArray dResidual = device.upload(spread(residual, m, n, offset, gap, Float.NaN));
              dev.kiln.Batch batch = device.batch()) {
            Gemm.shorts(
                batch,
                m,
                n,
                k,
                1.25f,
                da,
                offset,
                lengthA + gap,
                transA,
                db,
                offset,
                lengthB + gap,
                transB,
                0f,
                dc,
                offset,
                n + gap,
                Gemm.Epilogue.forDevice().biasPerColumn(dBias).residual(dResidual),
                bfloat,
                tiles);
            batch.submit();
            org.junit.jupiter.api.Assertions.assertArrayEquals(
                spread(wholeC, m, n, offset, gap, -7f),
                dc.toArray(),
                device + ", bfloat " + bfloat + ", tiles " + tiles);
          }
        }
      }
    }
    try (FloatArray small = cpu.floats(10);
        FloatArray six = cpu.floats(6);
        dev.kiln.Batch batch = cpu.batch()) {
      IllegalArgumentException overlapping =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  Gemm.floats(
                      batch,
                      2,
                      3,
                      2,
                      1f,
                      small,
                      0,
                      2,
                      false,
                      small,
                      0,
                      3,
                      false,
                      0f,
                      six,
                      0,
                      2,
                      Gemm.Epilogue.forDevice()));
      assertEquals(
          "c: offset 0 and rows 2 apart, for rows of 3 (the offset may not be negative,"
              + " nor rows overlap)",
          overlapping.getMessage());
      IndexOutOfBoundsException beyond =
          assertThrows(
              IndexOutOfBoundsException.class,
              () ->
                  Gemm.floats(
                      batch,
                      2,
                      3,
                      2,
                      1f,
                      small,
                      9,
                      2,
                      false,
                      small,
                      0,
                      3,
                      false,
                      0f,
                      six,
                      0,
                      3,
                      Gemm.Epilogue.forDevice()));
      assertEquals("a holds 10 elements, and 13 are needed", beyond.getMessage());
    }
  }

  /**
   * {@code matrix} (rows of {@code length}) laid out from {@code offset}, its rows {@code gap}
   * further apart, {@code filler} everywhere else.
   */
  static float[] spread(float[] matrix, int rows, int length, int offset, int gap, float filler) {
    float[] wide = new float[offset + rows * (length + gap) + 3];
    java.util.Arrays.fill(wide, filler);
    for (int r = 0; r < rows; r++) {
      System.arraycopy(matrix, r * length, wide, offset + r * (length + gap), length);
    }
    return wide;
  }

  /** {@link #spread} of 16-bit values, a NaN's bits between the rows. */
  static short[] spreadShorts(short[] matrix, int rows, int length, int offset, int gap) {
    short[] wide = new short[offset + rows * (length + gap) + 3];
    java.util.Arrays.fill(wide, (short) 0x7fc0); // a NaN in both float16 and bfloat16
    for (int r = 0; r < rows; r++) {
      System.arraycopy(matrix, r * length, wide, offset + r * (length + gap), length);
    }
    return wide;
  }

  /**
   * NaN and infinities in the factors reach the results as in Java's loop (a NaN row, an infinite
   * column, and ∞ - ∞), in floats and in float16, on both kernels of each: Java's bits on the CPU
   * backend (every NaN alike), and on Vulkan the same NaNs and infinities, the rest within the
   * bound.
   */
  @Test
  void nanAndInfinitiesPropagateAsInJava() {
    int m = 9;
    int n = 11;
    int k = 13;
    float[] a = RowsTest.values(new Random(21), m * k);
    float[] b = RowsTest.values(new Random(22), k * n);
    a[2 * k + 5] = Float.NaN; // row 2: NaN everywhere
    b[4 * n + 3] = Float.POSITIVE_INFINITY; // column 3: ±∞, or NaN where a[i][4] is 0
    a[6 * k + 4] = 0f;
    b[7 * n + 8] = Float.POSITIVE_INFINITY; // column 8: ∞ - ∞ in row 1
    b[9 * n + 8] = Float.NEGATIVE_INFINITY;
    a[k + 7] = 1f;
    a[k + 9] = 1f;
    short[] a16 = sixteenBits(a, false);
    short[] b16 = sixteenBits(b, false);
    float[] a16Values = decoded(a16, false);
    float[] b16Values = decoded(b16, false);
    for (Device device : devices()) {
      for (int format = 0; format < 3; format++) {
        float[] x = format == 0 ? a : a16Values;
        float[] y = format == 0 ? b : b16Values;
        float[] c = new float[m * n];
        if (format == 0) {
          Gemm.floats(device, m, n, k, 1f, a, false, b, false, 0f, c);
        } else {
          Gemm.shorts(
              device,
              m,
              n,
              k,
              1f,
              a16,
              false,
              b16,
              false,
              0f,
              c,
              Gemm.Epilogue.forArrays(),
              false,
              format == 2 && device == cpu);
        }
        for (int i = 0; i < m; i++) {
          for (int j = 0; j < n; j++) {
            float sum = 0f;
            double magnitude = 0;
            for (int p = 0; p < k; p++) {
              sum = Math.fma(x[i * k + p], y[p * n + j], sum);
              magnitude += Math.abs((double) x[i * k + p] * y[p * n + j]);
            }
            float got = c[i * n + j];
            String where = device + ", format " + format + ", c[" + i + "][" + j + "]";
            if (device == cpu || Float.isNaN(sum) || Float.isInfinite(sum)) {
              assertEquals(Float.floatToIntBits(sum), Float.floatToIntBits(got), where);
            } else {
              assertTrue(Math.abs(got - sum) <= (k + 2) * 0x1p-22 * magnitude, where);
            }
          }
        }
        assertTrue(Float.isNaN(c[2 * n]) && Float.isNaN(c[n + 8]), device + " " + format);
      }
    }
  }

  @Test
  void deviceArraysAndChecks() {
    int m = 3;
    int n = 4;
    int k = 2;
    float[] a = {1, 2, 3, 4, 5, 6};
    float[] b = {1, 0, 0, 1, 0, 1, 1, 0};
    for (Device device : devices()) {
      try (FloatArray da = device.upload(a);
          FloatArray db = device.upload(b);
          FloatArray dc = device.floats(m * n);
          FloatArray bias = device.upload(new float[] {10, 20, 30, 40})) {
        Gemm.floats(
            device,
            m,
            n,
            k,
            1f,
            da,
            false,
            db,
            false,
            0f,
            dc,
            Gemm.Epilogue.forDevice().biasPerColumn(bias));
        assertEquals(
            java.util.List.of(11f, 22f, 32f, 41f, 13f, 24f, 34f, 43f, 15f, 26f, 36f, 45f),
            boxed(dc.toArray()),
            device.toString());
      }
      IndexOutOfBoundsException shortB =
          assertThrows(
              IndexOutOfBoundsException.class,
              () ->
                  Gemm.floats(
                      device, 3, 4, 2, 1f, a, false, new float[7], false, 0f, new float[12]));
      assertEquals("b holds 7 elements, and 8 are needed", shortB.getMessage());
      IndexOutOfBoundsException shortBias =
          assertThrows(
              IndexOutOfBoundsException.class,
              () ->
                  Gemm.floats(
                      device,
                      3,
                      4,
                      2,
                      1f,
                      a,
                      false,
                      b,
                      false,
                      0f,
                      new float[12],
                      Gemm.Epilogue.forArrays().biasPerColumn(new float[3])));
      assertEquals("bias holds 3 elements, and 4 are needed", shortBias.getMessage());
      IllegalArgumentException negativeK =
          assertThrows(
              IllegalArgumentException.class,
              () -> Gemm.floats(device, 3, 4, -1, 1f, a, false, b, false, 0f, new float[12]));
      assertEquals("k: -1", negativeK.getMessage());
    }
  }

  private static java.util.List<Float> boxed(float[] values) {
    java.util.List<Float> list = new java.util.ArrayList<>();
    for (float v : values) {
      list.add(v);
    }
    return list;
  }
}
