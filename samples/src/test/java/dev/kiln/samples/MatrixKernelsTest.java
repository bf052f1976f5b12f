package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.samples.testing.SpirvVal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.matrix.MatrixElement;
import dev.kiln.matrix.MatrixLayout;
import dev.kiln.matrix.Matrices;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cooperative-matrix kernels: on the CPU backend (the kernel methods: matrices have no twins)
 * the bits of the documented order, products summed in k order into a float; on a Vulkan device
 * with VK_KHR_cooperative_matrix within the bound docs/KERNELS.md derives of the fp64 product; on
 * one without (lavapipe), the launch's refusal, word for word.
 */
class MatrixKernelsTest extends BothDevices {
  private static final String REFUSAL = " uses cooperative matrices, which needs cooperativeMatrix"
      + " (VK_KHR_cooperative_matrix); ";

  /** {@code Device.multipliesTiles} says true exactly where a float16 tile kernel launches. */
  @Test
  void devicesSayWhetherTheyMultiplyTilesInHardware() {
    for (MatrixElement element : MatrixElement.values()) {
      assertFalse(cpu.multipliesTiles(element), "the CPU backend runs tiles as Java");
    }
    short[] a = new short[32 * 16];
    short[] b = new short[16 * 64];
    boolean refusedHere = refused(() -> launch(vulkan, a, b, new float[32 * 64], 32, 16, 64),
        "HalfMatrixMultiply#multiply");
    assertEquals(!refusedHere, vulkan.multipliesTiles(MatrixElement.FLOAT16), vulkan.name());
  }

  @ParameterizedTest(name = "{0} x {1} times {1} x {2}")
  @CsvSource({"32, 16, 64", "64, 48, 128", "96, 160, 64"})
  void product(int rows, int inner, int columns) {
    Random random = new Random(rows * 1000L + inner * 10L + columns);
    short[] a = halves(random, rows * inner);
    short[] b = halves(random, inner * columns);
    float[] onCpu = new float[rows * columns];
    launch(cpuMethods, a, b, onCpu, rows, inner, columns);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        float sum = 0f;
        for (int k = 0; k < inner; k++) {
          sum += Float.float16ToFloat(a[r * inner + k]) * Float.float16ToFloat(b[k * columns + c]);
        }
        assertEquals(Float.floatToRawIntBits(sum), Float.floatToRawIntBits(onCpu[r * columns + c]),
            "c[" + r + "][" + c + "] on the CPU backend");
      }
    }
    float[] onVulkan = new float[rows * columns];
    if (refused(() -> launch(vulkan, a, b, onVulkan, rows, inner, columns), "HalfMatrixMultiply#multiply")) {
      return;
    }
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        Exact exact = Exact.of(a, r * inner, b, c, columns, inner);
        assertWithin(exact.sum(), exact.magnitude(), inner, onVulkan[r * columns + c], "c[" + r + "][" + c + "]");
      }
    }
  }

  /**
   * The dense layer, {@code gelu(x w + bias)} with the product stored into workgroup memory and
   * finished there: on the CPU backend the bits of the k-order product, plus the bias, through
   * {@link DenseLayer#gelu}; on a device within the product's bound carried through GELU (its
   * slope is at most 1.13) plus the device's tanh, taken to err by at most 2^-10 (NVIDIA's
   * approximate tanh errs by less than 2^-10.9).
   */
  @ParameterizedTest(name = "{0} x {1} times {1} x {2}")
  @CsvSource({"32, 16, 32", "64, 48, 96", "96, 160, 64"})
  void denseLayer(int rows, int inner, int columns) {
    Random random = new Random(rows * 7000L + inner * 70L + columns);
    short[] x = halves(random, rows * inner);
    short[] w = halves(random, inner * columns);
    float[] bias = new float[columns];
    for (int c = 0; c < columns; c++) {
      bias[c] = random.nextFloat() * 2 - 1;
    }
    int invocations = rows * columns / DenseLayer.BLOCK;
    float[] onCpu = new float[rows * columns];
    DenseLayerKernels.layer(cpuMethods, invocations, x, w, bias, onCpu, rows, inner, columns);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        float sum = 0f;
        for (int k = 0; k < inner; k++) {
          sum += Float.float16ToFloat(x[r * inner + k]) * Float.float16ToFloat(w[k * columns + c]);
        }
        assertEquals(Float.floatToRawIntBits(DenseLayer.gelu(sum + bias[c])),
            Float.floatToRawIntBits(onCpu[r * columns + c]), "y[" + r + "][" + c + "] on the CPU backend");
        // and the sample's GELU is GELU's tanh form, within a few float roundings of it in double
        double v = sum + bias[c];
        assertTrue(Math.abs(onCpu[r * columns + c] - gelu(v)) <= 0x1p-20 * (1 + Math.abs(v)),
            "GELU(" + v + ") = " + onCpu[r * columns + c] + " on the CPU backend, " + gelu(v) + " in double");
      }
    }
    float[] onVulkan = new float[rows * columns];
    if (refused(() -> DenseLayerKernels.layer(vulkan, invocations, x, w, bias, onVulkan, rows, inner, columns),
        "DenseLayer#layer")) {
      return;
    }
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        Exact product = Exact.of(x, r * inner, w, c, columns, inner);
        double exact = product.sum() + bias[c];
        double magnitude = product.magnitude() + Math.abs(bias[c]);
        double gelu = gelu(exact);
        double bound = 1.13 * Matrices.errorBound(inner + 1, magnitude) + 0.5 * Math.abs(exact) * 0x1p-10
            + 0x1p-20 * Math.abs(gelu);
        float result = onVulkan[r * columns + c];
        assertTrue(Math.abs(result - gelu) <= bound, "y[" + r + "][" + c + "] = " + result + " on " + vulkan
            + ", exact " + gelu + ": error " + Math.abs(result - gelu) + " beyond " + bound);
      }
    }
  }

  /**
   * One product fed into the next through workgroup memory, rounded to float16 there: on the CPU
   * backend the bits of the k-order sums with Java's rounding between them; on a device each first
   * sum within its bound plus a float16 rounding (2^-10 of it, one unit more than the half unit the
   * CPU's rounding takes, for a device whose sum lies across a rounding boundary), carried through
   * the second product, whose own bound adds.
   */
  @Test
  void chainedTiles() {
    int tiles = 3;
    Random random = new Random(11);
    short[] a = halves(random, tiles * 256);
    short[] b = halves(random, tiles * 256);
    short[] e = halves(random, tiles * 256);
    float[] onCpu = new float[tiles * 256];
    HalfMatrixMultiplyKernels.chainedTile(cpuMethods, tiles * 32, a, b, e, onCpu);
    for (int t = 0; t < tiles; t++) {
      float[] first = new float[256];
      for (int i = 0; i < 16; i++) {
        for (int k = 0; k < 16; k++) {
          float sum = 0f;
          for (int m = 0; m < 16; m++) {
            sum += Float.float16ToFloat(a[t * 256 + i * 16 + m]) * Float.float16ToFloat(b[t * 256 + m * 16 + k]);
          }
          first[i * 16 + k] = sum;
        }
      }
      for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++) {
          float sum = 0f;
          for (int k = 0; k < 16; k++) {
            sum += Float.float16ToFloat(Float.floatToFloat16(first[i * 16 + k])) * Float.float16ToFloat(e[t * 256 + k * 16 + j]);
          }
          assertEquals(Float.floatToRawIntBits(sum), Float.floatToRawIntBits(onCpu[t * 256 + i * 16 + j]),
              "d[" + t + "][" + i + "][" + j + "] on the CPU backend");
        }
      }
    }
    float[] onVulkan = new float[tiles * 256];
    if (refused(() -> HalfMatrixMultiplyKernels.chainedTile(vulkan, tiles * 32, a, b, e, onVulkan),
        "HalfMatrixMultiply#chainedTile")) {
      return;
    }
    for (int t = 0; t < tiles; t++) {
      for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++) {
          double exact = 0;
          double carried = 0;
          double magnitude = 0;
          for (int k = 0; k < 16; k++) {
            Exact first = Exact.of(a, t * 256 + i * 16, b, t * 256 + k, 16, 16);
            double factor = Float.float16ToFloat(e[t * 256 + k * 16 + j]);
            double firstBound = Matrices.errorBound(16, first.magnitude()) + 0x1p-10 * Math.abs(first.sum());
            exact += first.sum() * factor;
            carried += firstBound * Math.abs(factor);
            magnitude += (Math.abs(first.sum()) + firstBound) * Math.abs(factor);
          }
          double bound = carried + Matrices.errorBound(16, magnitude);
          float result = onVulkan[t * 256 + i * 16 + j];
          assertTrue(Math.abs(result - exact) <= bound, "d[" + t + "][" + i + "][" + j + "] = " + result + " on "
              + vulkan + ", exact " + exact + ": error " + Math.abs(result - exact) + " beyond " + bound);
        }
      }
    }
  }

  /** Loads of accumulators, scaling, sums and a column-major store, on 3 tiles. */
  @Test
  void scaledTiles() {
    int tiles = 3;
    Random random = new Random(3);
    short[] a = halves(random, tiles * 256);
    short[] b = halves(random, tiles * 256);
    float[] c = Bits.randomFloats(random, tiles * 256, 4f);
    float alpha = 0.75f;
    float beta = -1.5f;
    float[] onCpu = c.clone();
    scaled(cpuMethods, tiles, a, b, onCpu, alpha, beta);
    for (int t = 0; t < tiles; t++) {
      for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++) {
          float sum = 0f;
          for (int k = 0; k < 16; k++) { // b column-major: b[k][j] at j * 16 + k
            sum += Float.float16ToFloat(a[t * 256 + i * 16 + k]) * Float.float16ToFloat(b[t * 256 + j * 16 + k]);
          }
          float expected = sum * alpha + c[t * 256 + i * 16 + j] * beta;
          assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(onCpu[t * 256 + j * 16 + i]),
              "tile " + t + " (" + i + ", " + j + ") on the CPU backend");
        }
      }
    }
    float[] onVulkan = c.clone();
    if (refused(() -> scaled(vulkan, tiles, a, b, onVulkan, alpha, beta), "HalfMatrixMultiply#scaledTile")) {
      return;
    }
    for (int i = 0; i < onCpu.length; i++) { // the sum of 16 products, then two roundings of 2 terms
      assertTrue(Math.abs(onVulkan[i] - onCpu[i]) <= 1e-3f * (1 + Math.abs(onCpu[i])),
          "element " + i + ": " + onVulkan[i] + " on " + vulkan + ", " + onCpu[i] + " on the CPU backend");
    }
  }

  /**
   * bfloat16 tiles: on the CPU backend the documented order's bits (products exact, each sum rounded
   * to a float); on a device within the bound of {@code Matrices.errorBound} of the exact product,
   * which holds since bfloat16 products are exact in a float as float16 ones are.
   */
  @Test
  void bfloat16Tiles() {
    int tiles = 2;
    Random random = new Random(11);
    short[] a = bfloats(random, tiles * 256);
    short[] b = bfloats(random, tiles * 256);
    float[] onCpu = new float[tiles * 256];
    HalfMatrixMultiplyKernels.bfloat16Tile(cpuMethods, tiles * cpuMethods.subgroupSize(), a, b, onCpu);
    double[] exact = new double[tiles * 256];
    double[] magnitude = new double[tiles * 256];
    for (int t = 0; t < tiles; t++) {
      for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++) {
          int e = t * 256 + i * 16 + j;
          float sum = 0f;
          for (int k = 0; k < 16; k++) {
            float product = bfloat(a[t * 256 + i * 16 + k]) * bfloat(b[t * 256 + k * 16 + j]);
            sum += product;
            exact[e] += product; // exact: 16 products of 16 significant bits in a double
            magnitude[e] += Math.abs(product);
          }
          assertEquals(Float.floatToRawIntBits(sum), Float.floatToRawIntBits(onCpu[e]), "tile " + t + " (" + i + ", "
              + j + ") on the CPU backend");
        }
      }
    }
    float[] onVulkan = new float[tiles * 256];
    if (refused(() -> HalfMatrixMultiplyKernels.bfloat16Tile(vulkan, tiles * vulkan.subgroupSize(), a, b, onVulkan),
        "HalfMatrixMultiply#bfloat16Tile")) {
      return;
    }
    for (int e = 0; e < onVulkan.length; e++) {
      double bound = Matrices.errorBound(16, magnitude[e]);
      assertTrue(Math.abs(onVulkan[e] - exact[e]) <= bound, "element " + e + ": " + onVulkan[e] + " on " + vulkan
          + ", exactly " + exact[e] + ", bound " + bound);
    }
  }

  /** A multiply-add of a float16 and a bfloat16 tile, which the compiler refuses in kernels, throws where Java calls it. */
  @Test
  void mixedElementTypesAreRefused() {
    short[] ones = new short[256];
    java.util.Arrays.fill(ones, Float.floatToFloat16(1f));
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> Matrices.multiplyAdd(
        Matrices.loadA(ones, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR),
        Matrices.loadB(ones, 0, 16, MatrixElement.BFLOAT16, MatrixLayout.ROW_MAJOR), Matrices.filled(0f)));
    assertEquals("a multiply-add of FLOAT16 and BFLOAT16 tiles: A and B hold one element type", thrown.getMessage());
  }

  /** Random bfloat16 bits of values in [-2, 2): floats truncated to their upper 16 bits. */
  private static short[] bfloats(Random random, int n) {
    short[] bits = new short[n];
    for (int i = 0; i < n; i++) {
      bits[i] = (short) (Float.floatToRawIntBits(random.nextFloat() * 4 - 2) >>> 16);
    }
    return bits;
  }

  private static float bfloat(short bits) {
    return Float.intBitsToFloat(bits << 16);
  }

  /**
   * Tiles staged in Gpu.sharedPackedShorts, element by element or by 16-byte copies (an array then
   * held as quads): the staged shorts read back as Java widens them, the product's bits.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void stagedTiles(boolean copied) {
    int tiles = 2;
    Random random = new Random(5);
    short[] a = halves(random, tiles * 256);
    short[] b = halves(random, tiles * 256);
    float[] onCpu = new float[tiles * 256];
    int[] copies = new int[tiles * 256];
    Staging staging = copied ? HalfMatrixMultiplyKernels::copiedTile : HalfMatrixMultiplyKernels::stagedTile;
    staging.launch(cpuMethods, tiles * 32, a, b, onCpu, copies);
    for (int t = 0; t < tiles; t++) {
      for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++) {
          int e = t * 256 + i * 16 + j;
          assertEquals(a[e] + b[e] * 65536, copies[e], "copy " + e);
          float sum = 0f;
          for (int k = 0; k < 16; k++) {
            sum += Float.float16ToFloat(a[t * 256 + i * 16 + k]) * Float.float16ToFloat(b[t * 256 + k * 16 + j]);
          }
          assertEquals(Float.floatToRawIntBits(sum), Float.floatToRawIntBits(onCpu[e]), "tile " + t + " (" + i + ", "
              + j + ") on the CPU backend");
        }
      }
    }
    float[] onVulkan = new float[tiles * 256];
    int[] copiesOnVulkan = new int[tiles * 256];
    if (refused(() -> staging.launch(vulkan, tiles * 32, a, b, onVulkan, copiesOnVulkan),
        "HalfMatrixMultiply#" + (copied ? "copiedTile" : "stagedTile"))) {
      return;
    }
    org.junit.jupiter.api.Assertions.assertArrayEquals(copies, copiesOnVulkan, "the staged shorts on " + vulkan);
    for (int i = 0; i < onCpu.length; i++) {
      assertTrue(Math.abs(onVulkan[i] - onCpu[i]) <= 20 * 0x1p-22 * 64, "element " + i + ": " + onVulkan[i] + " on "
          + vulkan + ", " + onCpu[i] + " on the CPU backend");
    }
  }

  /** A launcher of {@link HalfMatrixMultiply#stagedTile} or {@link HalfMatrixMultiply#copiedTile}. */
  private interface Staging {
    void launch(Device device, int count, short[] a, short[] b, float[] c, int[] copies);
  }

  /** A tile reaching past the end of its buffer: Java's exception, naming its last index, everywhere. */
  @Test
  void tilePastTheEnd() {
    short[] a = new short[2 * 256];
    short[] b = new short[2 * 256 - 1];
    float[] c = new float[2 * 256];
    String expected = "Index 511 out of bounds for length 511"; // tile 1 at 256, column-major: 256 + 15 * 16 + 15
    ArrayIndexOutOfBoundsException onCpu = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> scaled(cpuMethods, 2, a, b, c, 1f, 0f));
    assertEquals(expected, onCpu.getMessage());
    try {
      ArrayIndexOutOfBoundsException onVulkan = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> scaled(vulkan, 2, a, b, c, 1f, 0f));
      assertEquals(expected + " of buffer 'b' in kernel dev.kiln.samples.HalfMatrixMultiply#scaledTile (line 94)",
          onVulkan.getMessage());
    } catch (AssertionError notThrown) {
      if (!refused(() -> scaled(vulkan, 2, a, b, c, 1f, 0f), "HalfMatrixMultiply#scaledTile")) {
        throw notThrown;
      }
    }
  }

  /**
   * A stride that is no multiple of 16 bytes (20 float16s), which Vulkan's matrix loads cannot
   * take: IllegalArgumentException naming it, on both backends, before any tile is read.
   */
  @Test
  void misalignedStride() {
    int rows = 32;
    int inner = 20;
    int columns = 64;
    short[] a = new short[rows * inner];
    short[] b = new short[inner * columns];
    String expected = dev.kiln.abi.LaunchAbi.MATRIX_ALIGNMENT_MESSAGE + inner;
    IllegalArgumentException onCpu = assertThrows(IllegalArgumentException.class,
        () -> launch(cpuMethods, a, b, new float[rows * columns], rows, inner, columns));
    assertEquals(expected, onCpu.getMessage());
    try {
      IllegalArgumentException onVulkan = assertThrows(IllegalArgumentException.class,
          () -> launch(vulkan, a, b, new float[rows * columns], rows, inner, columns));
      assertEquals(expected + " in kernel dev.kiln.samples.HalfMatrixMultiply#multiply (line 53)", onVulkan.getMessage());
    } catch (AssertionError notThrown) {
      if (!refused(() -> launch(vulkan, a, b, new float[rows * columns], rows, inner, columns),
          "HalfMatrixMultiply#multiply")) {
        throw notThrown;
      }
    }
  }

  /** The samples' modules, these kernels' among them, pass a spirv-val that knows SPV_KHR_cooperative_matrix. */
  @Test
  void modulesValidate() throws Exception {
    assertEquals(0, SpirvVal.invalidModules(java.nio.file.Path.of("target/classes/dev/kiln/samples")),
        "modules spirv-val rejects");
  }

  /**
   * The fp64 sum over k below {@code inner} of {@code a[aFirst + k] * b[bFirst + k * bStride]}, float16
   * bits both (a row of a times a column of b), and the sum of the terms' magnitudes.
   */
  record Exact(double sum, double magnitude) {
    static Exact of(short[] a, int aFirst, short[] b, int bFirst, int bStride, int inner) {
      double sum = 0;
      double magnitude = 0;
      for (int k = 0; k < inner; k++) {
        double term = (double) Float.float16ToFloat(a[aFirst + k]) * Float.float16ToFloat(b[bFirst + k * bStride]);
        sum += term;
        magnitude += Math.abs(term);
      }
      return new Exact(sum, magnitude);
    }
  }

  /** GELU's tanh form in double: {@code v/2 (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3)))}. */
  static double gelu(double v) {
    return 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v)));
  }

  /** |result - exact| within the bound docs/KERNELS.md derives ({@link Matrices#errorBound}). */
  static void assertWithin(double exact, double magnitude, int inner, float result, String what) {
    double bound = Matrices.errorBound(inner, magnitude);
    assertTrue(Math.abs(result - exact) <= bound, what + " = " + result + " on " + vulkan + ", exact " + exact
        + ": error " + Math.abs(result - exact) + " beyond " + bound);
  }

  /** Whether {@code launch} is refused as on a device without cooperative matrices; false if it ran. */
  static boolean refused(Runnable launch, String kernel) {
    try {
      launch.run();
      return false;
    } catch (IllegalStateException refusal) {
      assertEquals("dev.kiln.samples." + kernel + REFUSAL + vulkan.name() + " lacks it", refusal.getMessage());
      return true;
    }
  }

  static void launch(Device device, short[] a, short[] b, float[] c, int rows, int inner, int columns) {
    int blocks = rows / HalfMatrixMultiply.BLOCK_ROWS * (columns / HalfMatrixMultiply.BLOCK_COLUMNS);
    HalfMatrixMultiplyKernels.multiply(device, wholeWorkgroups(blocks * device.subgroupSize()), a, b, c, rows, inner,
        columns);
  }

  static void scaled(Device device, int tiles, short[] a, short[] b, float[] c, float alpha, float beta) {
    HalfMatrixMultiplyKernels.scaledTile(device, tiles * device.subgroupSize(), a, b, c, alpha, beta);
  }

  private static int wholeWorkgroups(int invocations) {
    int size = HalfMatrixMultiply.WORKGROUP;
    return (invocations + size - 1) / size * size;
  }

  /** Random float16 bits of values in [-2, 2), each a float16 exactly. */
  static short[] halves(Random random, int n) {
    short[] bits = new short[n];
    for (int i = 0; i < n; i++) {
      bits[i] = Float.floatToFloat16(random.nextFloat() * 4 - 2);
    }
    return bits;
  }
}
