package dev.kiln.bench;

import static dev.kiln.matrix.MatrixElement.FLOAT16;
import static dev.kiln.matrix.MatrixLayout.ROW_MAJOR;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import dev.kiln.matrix.MatrixA;
import dev.kiln.matrix.MatrixAccumulator;
import dev.kiln.matrix.MatrixB;

/**
 * Variants of the sample {@code HalfMatrixMultiply} for measuring what its speed depends on: a
 * 64 x 64 block per subgroup (4 x 4 tiles: 8 tile loads per 16 multiply-adds, against the sample's
 * 6 per 8), with and without the tiles' extent checks. Dimensions are multiples of 64.
 */
final class TensorCores {
  static final int SIDE = 64;
  static final int WORKGROUP = 128;
  private static final int T = 16;

  private TensorCores() {}

  /** {@code c = a b}, 64 x 64 of {@code c} per subgroup. */
  @Kernel(workgroup = {WORKGROUP})
  static void wide(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int rows, int inner, int columns) {
    product(a, b, c, rows, inner, columns);
  }

  /** {@link #wide} without extent checks: what they cost. */
  @Kernel(workgroup = {WORKGROUP}, boundsChecks = false)
  static void wideUnchecked(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int rows, int inner, int columns) {
    product(a, b, c, rows, inner, columns);
  }

  /** The body of both kernels, inlined into each. */
  private static void product(short[] a, short[] b, float[] c, int rows, int inner, int columns) {
    int block = Gpu.workgroupId(0) * Gpu.numSubgroups() + Gpu.subgroupId();
    int blocksPerRow = columns / SIDE;
    int row = block / blocksPerRow * SIDE;
    int column = block % blocksPerRow * SIDE;
    if (row < rows) {
      MatrixAccumulator c00 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c01 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c02 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c03 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c10 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c11 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c12 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c13 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c20 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c21 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c22 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c23 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c30 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c31 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c32 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c33 = Gpu.fillAccumulator(0f);
      for (int k = 0; k < inner; k += T) {
        MatrixA a0 = Gpu.loadMatrixA(a, (row + 0 * T) * inner + k, inner, FLOAT16, ROW_MAJOR);
        MatrixA a1 = Gpu.loadMatrixA(a, (row + 1 * T) * inner + k, inner, FLOAT16, ROW_MAJOR);
        MatrixA a2 = Gpu.loadMatrixA(a, (row + 2 * T) * inner + k, inner, FLOAT16, ROW_MAJOR);
        MatrixA a3 = Gpu.loadMatrixA(a, (row + 3 * T) * inner + k, inner, FLOAT16, ROW_MAJOR);
        MatrixB b0 = Gpu.loadMatrixB(b, k * columns + column + 0 * T, columns, FLOAT16, ROW_MAJOR);
        MatrixB b1 = Gpu.loadMatrixB(b, k * columns + column + 1 * T, columns, FLOAT16, ROW_MAJOR);
        MatrixB b2 = Gpu.loadMatrixB(b, k * columns + column + 2 * T, columns, FLOAT16, ROW_MAJOR);
        MatrixB b3 = Gpu.loadMatrixB(b, k * columns + column + 3 * T, columns, FLOAT16, ROW_MAJOR);
        c00 = Gpu.multiplyAdd(a0, b0, c00);
        c01 = Gpu.multiplyAdd(a0, b1, c01);
        c02 = Gpu.multiplyAdd(a0, b2, c02);
        c03 = Gpu.multiplyAdd(a0, b3, c03);
        c10 = Gpu.multiplyAdd(a1, b0, c10);
        c11 = Gpu.multiplyAdd(a1, b1, c11);
        c12 = Gpu.multiplyAdd(a1, b2, c12);
        c13 = Gpu.multiplyAdd(a1, b3, c13);
        c20 = Gpu.multiplyAdd(a2, b0, c20);
        c21 = Gpu.multiplyAdd(a2, b1, c21);
        c22 = Gpu.multiplyAdd(a2, b2, c22);
        c23 = Gpu.multiplyAdd(a2, b3, c23);
        c30 = Gpu.multiplyAdd(a3, b0, c30);
        c31 = Gpu.multiplyAdd(a3, b1, c31);
        c32 = Gpu.multiplyAdd(a3, b2, c32);
        c33 = Gpu.multiplyAdd(a3, b3, c33);
      }
      Gpu.storeAccumulator(c00, c, (row + 0 * T) * columns + column + 0 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c01, c, (row + 0 * T) * columns + column + 1 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c02, c, (row + 0 * T) * columns + column + 2 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c03, c, (row + 0 * T) * columns + column + 3 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c10, c, (row + 1 * T) * columns + column + 0 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c11, c, (row + 1 * T) * columns + column + 1 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c12, c, (row + 1 * T) * columns + column + 2 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c13, c, (row + 1 * T) * columns + column + 3 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c20, c, (row + 2 * T) * columns + column + 0 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c21, c, (row + 2 * T) * columns + column + 1 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c22, c, (row + 2 * T) * columns + column + 2 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c23, c, (row + 2 * T) * columns + column + 3 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c30, c, (row + 3 * T) * columns + column + 0 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c31, c, (row + 3 * T) * columns + column + 1 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c32, c, (row + 3 * T) * columns + column + 2 * T, columns, ROW_MAJOR);
      Gpu.storeAccumulator(c33, c, (row + 3 * T) * columns + column + 3 * T, columns, ROW_MAJOR);
    }
  }
}
