package dev.kiln.samples.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Device;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Private arrays of two and three dimensions give Java's bits on Vulkan and the CPU backend, and
 * fault where Java does, in Java's order, with the length of the dimension that failed.
 */
class GridArraysTest extends BothDevices {
  private static final String KERNELS = "dev.kiln.samples.semantics.GridArrayKernels";

  @ParameterizedTest(name = "{0} rows x {1} columns")
  @CsvSource({"1, 1", "7, 5", "64, 17", "193, 9", "1000, 33"})
  void matrixVectorProductKeepsItsSumsInATwoDimensionalArray(int rows, int cols) {
    compare("matVec", rows * 100 + cols,
        r -> new Object[] {Bits.randomFloats(r, rows * cols, 2f), Bits.randomFloats(r, cols, 2f), new float[rows]},
        (d, a) -> GridArrayKernelsKernels.matVec(d, (rows + GridArrayKernels.NUM_ROWS - 1) / GridArrayKernels.NUM_ROWS,
            (float[]) a[0], (float[]) a[1], (float[]) a[2], rows, cols));
    Random random = new Random(rows * 100L + cols); // and the sums are the product's
    float[] m = Bits.randomFloats(random, rows * cols, 2f);
    float[] x = Bits.randomFloats(random, cols, 2f);
    float[] out = new float[rows];
    GridArrayKernelsKernels.matVec(cpu, (rows + 2) / 3, m, x, out, rows, cols);
    for (int r = 0; r < rows; r++) {
      double sum = 0;
      for (int c = 0; c < cols; c++) {
        sum += (double) m[r * cols + c] * x[c];
      }
      assertEquals(sum, out[r], 1e-4 * cols, "row " + r);
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 31, 33, 1001})
  void aThreeDimensionalTileGoesToAHelperAndThroughForEach(int n) {
    compare("tile", n, r -> new Object[] {Bits.randomFloats(r, n + 5, 4f), new float[n]},
        (d, a) -> GridArrayKernelsKernels.tile(d, n, (float[]) a[0], (float[]) a[1]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 33, 257})
  void theRowsOfATwoDimensionalArrayWalkedWithForEach(int n) {
    compare("rowsWalked", n, r -> new Object[] {Bits.randomFloats(r, n + 7, 4f), new float[n]},
        (d, a) -> GridArrayKernelsKernels.rowsWalked(d, n, (float[]) a[0], (float[]) a[1]));
  }

  @Test
  void anIndexInsideTheArrayButOutsideItsDimensionFaults() {
    for (Device device : new Device[] {cpu, vulkan}) {
      int[] out = new int[1];
      GridArrayKernelsKernels.at(device, 1, out, 1, 2);
      assertEquals(7, out[0], device.toString());
      assertFault(device, "Index 5 out of bounds for length 4", 0, 5); // flat element 5 exists
      assertFault(device, "Index 3 out of bounds for length 3", 3, 0);
      assertFault(device, "Index -1 out of bounds for length 3", -1, 2);
      assertFault(device, "Index -1 out of bounds for length 4", 1, -1); // flat element 3 exists
    }
    ArrayIndexOutOfBoundsException java = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> GridArrayKernelsKernels.at(cpuMethods, 1, new int[1], 0, 5));
    assertEquals("Index 5 out of bounds for length 4", java.getMessage().substring(0, 34));
  }

  private static void assertFault(Device device, String java, int row, int column) {
    ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> GridArrayKernelsKernels.at(device, 1, new int[1], row, column));
    assertEquals(java + " of a local array in kernel " + KERNELS + "#at (line 80)", thrown.getMessage(),
        device.toString());
  }

  /** The row is checked before the value is computed, the column after, as Java does. */
  @Test
  void aStoreChecksTheRowThenComputesTheValueThenChecksTheColumn() {
    for (Device device : new Device[] {cpu, vulkan}) {
      ArithmeticException value = assertThrows(ArithmeticException.class,
          () -> GridArrayKernelsKernels.storeOrder(device, 1, new int[1], 0, 9, 0));
      if (device == vulkan) {
        assertEquals("/ by zero in kernel " + KERNELS + "#storeOrder (line 90)", value.getMessage());
      } else { // the CPU backend names the line in the stack trace (FaultsTest)
        assertEquals("/ by zero in kernel " + KERNELS + "#storeOrder", value.getMessage());
        assertEquals("GridArrayKernels.java:90", value.getStackTrace()[0].getFileName() + ":"
            + value.getStackTrace()[0].getLineNumber());
      }
      ArrayIndexOutOfBoundsException row = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> GridArrayKernelsKernels.storeOrder(device, 1, new int[1], 5, 0, 0));
      assertEquals("Index 5 out of bounds for length 3 of a local array in kernel " + KERNELS
          + "#storeOrder (line 90)", row.getMessage(), device.toString());
      int[] out = new int[1];
      GridArrayKernelsKernels.storeOrder(device, 1, out, 2, 3, 5);
      assertEquals(2, out[0], device.toString());
    }
    assertThrows(ArithmeticException.class, () -> GridArrayKernelsKernels.storeOrder(cpuMethods, 1, new int[1], 0, 9, 0));
    assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> GridArrayKernelsKernels.storeOrder(cpuMethods, 1, new int[1], 5, 0, 0));
  }
}
