package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.Grid;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The library-grade kernels (the register-blocked matrix product, the fast byte histogram) on the
 * kernel methods, the CPU twins and Vulkan, at shapes that are not multiples of their blocks.
 */
class LibraryKernelsTest extends BothDevices {
  @ParameterizedTest(name = "{0} x {1} times {1} x {2}")
  @CsvSource({"1, 1, 1", "129, 77, 200", "128, 128, 128", "7, 300, 260"})
  void blockedMatrixProduct(int rows, int inner, int columns) {
    Random random = new Random(rows * 1000L + inner * 10L + columns);
    float[] a = Bits.randomFloats(random, rows * inner, 2f);
    float[] b = Bits.randomFloats(random, inner * columns, 2f);
    float[] expected = new float[rows * columns];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        float sum = 0f;
        for (int k = 0; k < inner; k++) {
          sum = Math.fma(a[r * inner + k], b[k * columns + c], sum);
        }
        expected[r * columns + c] = sum;
      }
    }
    Grid grid = Grid.of(ceilDiv(columns, BlockedMatrixMultiply.TILE), ceilDiv(rows, BlockedMatrixMultiply.TILE));
    for (Device device : new Device[] {cpuMethods, cpu}) {
      float[] product = new float[rows * columns];
      BlockedMatrixMultiplyKernels.multiply(device, grid, a, b, product, rows, inner, columns);
      Bits.assertSameBits("blocked product on " + device, expected, product);
    }
    float[] product = new float[rows * columns];
    BlockedMatrixMultiplyKernels.multiply(vulkan, grid, a, b, product, rows, inner, columns);
    // Java's bits where the device fuses Gpu.fma; lavapipe rounds the product first, so the bound for
    // a k-order sum of inner rounded products: |error| <= gamma(inner + 1) * sum |a b|, u = 2^-24
    double gamma = (inner + 1) * 0x1p-24 / (1 - (inner + 1) * 0x1p-24);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        double exact = 0;
        double magnitude = 0;
        for (int k = 0; k < inner; k++) {
          exact += (double) a[r * inner + k] * b[k * columns + c];
          magnitude += Math.abs((double) a[r * inner + k] * b[k * columns + c]);
        }
        double error = Math.abs(product[r * columns + c] - exact);
        assertTrue(error <= gamma * magnitude, "c[" + r + "][" + c + "] = " + product[r * columns + c] + " on "
            + vulkan + ", exact " + exact + ": error " + error + " beyond " + gamma * magnitude);
      }
    }
  }

  @ParameterizedTest(name = "{0} values, {1} % in one bin, {2} workgroups")
  @CsvSource({"1, 0, 1", "1000, 0, 3", "100003, 0, 8", "100003, 90, 8", "70000, 100, 5"})
  void byteHistogram(int n, int skewPercent, int workgroups) {
    Random random = new Random(n + skewPercent);
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextInt(100) < skewPercent ? 0x1234_5607 : random.nextInt();
    }
    int[] expected = new int[ByteHistogram.BINS];
    for (int value : values) {
      expected[value & 255]++;
    }
    for (Device device : new Device[] {cpuMethods, cpu, vulkan}) {
      int[] bins = new int[ByteHistogram.BINS];
      ByteHistogramKernels.count(device, workgroups * ByteHistogram.WORKGROUP, values, bins);
      assertArrayEquals(expected, bins, "on " + device);
    }
  }

  private static int ceilDiv(int n, int d) {
    return (n + d - 1) / d;
  }
}
