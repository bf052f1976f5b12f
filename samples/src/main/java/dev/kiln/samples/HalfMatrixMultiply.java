package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import dev.kiln.matrix.MatrixA;
import dev.kiln.matrix.MatrixAccumulator;
import dev.kiln.matrix.MatrixB;
import dev.kiln.matrix.MatrixElement;
import dev.kiln.matrix.MatrixLayout;

/**
 * A matrix product on the tensor cores: float16 factors (their bits in {@code short[]}s, as
 * {@link Float#floatToFloat16} gives them), float sums. Each subgroup computes a 32 x 64 block of
 * {@code c} as 2 x 4 cooperative-matrix tiles, loading its two A tiles and four B tiles once per
 * step of 16 along k. The block is the subgroup's by its workgroup and subgroup ids, values every
 * lane shares, as the matrix operations require.
 */
public final class HalfMatrixMultiply {
  /** Rows of {@code c} per subgroup. */
  public static final int BLOCK_ROWS = 32;
  /** Columns of {@code c} per subgroup. */
  public static final int BLOCK_COLUMNS = 64;
  /** Invocations per workgroup. */
  public static final int WORKGROUP = 128;
  private static final int T = 16;

  private HalfMatrixMultiply() {}

  /**
   * {@code c = a b} for row-major {@code a} (rows x inner) and {@code b} (inner x columns), each
   * dimension a multiple of the blocks' (rows of 32, columns of 64, inner of 16), on a grid of
   * {@code rows * columns / (32 * 64)} subgroups: that many times the subgroup size invocations.
   */
  @Kernel(workgroup = {WORKGROUP})
  static void multiply(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int rows, int inner, int columns) {
    int block = Gpu.workgroupId(0) * Gpu.numSubgroups() + Gpu.subgroupId();
    int blocksPerRow = columns / BLOCK_COLUMNS;
    int row = block / blocksPerRow * BLOCK_ROWS;
    int column = block % blocksPerRow * BLOCK_COLUMNS;
    if (row < rows) {
      MatrixAccumulator c00 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c01 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c02 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c03 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c10 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c11 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c12 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c13 = Gpu.fillAccumulator(0f);
      for (int k = 0; k < inner; k += T) {
        MatrixA a0 = Gpu.loadMatrixA(a, row * inner + k, inner, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
        MatrixA a1 = Gpu.loadMatrixA(a, (row + T) * inner + k, inner, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
        MatrixB b0 = Gpu.loadMatrixB(b, k * columns + column, columns, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
        MatrixB b1 = Gpu.loadMatrixB(b, k * columns + column + T, columns, MatrixElement.FLOAT16,
            MatrixLayout.ROW_MAJOR);
        MatrixB b2 = Gpu.loadMatrixB(b, k * columns + column + 2 * T, columns, MatrixElement.FLOAT16,
            MatrixLayout.ROW_MAJOR);
        MatrixB b3 = Gpu.loadMatrixB(b, k * columns + column + 3 * T, columns, MatrixElement.FLOAT16,
            MatrixLayout.ROW_MAJOR);
        c00 = Gpu.multiplyAdd(a0, b0, c00);
        c01 = Gpu.multiplyAdd(a0, b1, c01);
        c02 = Gpu.multiplyAdd(a0, b2, c02);
        c03 = Gpu.multiplyAdd(a0, b3, c03);
        c10 = Gpu.multiplyAdd(a1, b0, c10);
        c11 = Gpu.multiplyAdd(a1, b1, c11);
        c12 = Gpu.multiplyAdd(a1, b2, c12);
        c13 = Gpu.multiplyAdd(a1, b3, c13);
      }
      int top = row * columns + column;
      int bottom = (row + T) * columns + column;
      Gpu.storeAccumulator(c00, c, top, columns, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c01, c, top + T, columns, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c02, c, top + 2 * T, columns, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c03, c, top + 3 * T, columns, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c10, c, bottom, columns, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c11, c, bottom + T, columns, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c12, c, bottom + 2 * T, columns, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c13, c, bottom + 3 * T, columns, MatrixLayout.ROW_MAJOR);
    }
  }

  /**
   * {@code alpha (a b) + beta c} of one 16 x 16 tile per subgroup, for the tests of the other
   * matrix operations: accumulators loaded and scaled, added, and stored column-major.
   */
  @Kernel(workgroup = {32})
  static void scaledTile(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b, float[] c, float alpha,
      float beta) {
    int tile = Gpu.workgroupId(0) * Gpu.numSubgroups() + Gpu.subgroupId();
    int at = tile * T * T;
    MatrixA left = Gpu.loadMatrixA(a, at, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB right = Gpu.loadMatrixB(b, at, T, MatrixElement.FLOAT16, MatrixLayout.COLUMN_MAJOR);
    MatrixAccumulator product = Gpu.multiplyAdd(left, right, Gpu.fillAccumulator(0f));
    MatrixAccumulator old = Gpu.loadAccumulator(c, at, T, MatrixLayout.ROW_MAJOR);
    MatrixAccumulator sum = Gpu.addAccumulators(Gpu.scaleAccumulator(product, alpha),
        Gpu.scaleAccumulator(old, beta));
    Gpu.storeAccumulator(sum, c, at, T, MatrixLayout.COLUMN_MAJOR);
  }

  /** One 16 x 16 product of bfloat16 tiles per subgroup, both row-major, stored row-major. */
  @Kernel(workgroup = {32})
  static void bfloat16Tile(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b, float[] c) {
    int at = (Gpu.workgroupId(0) * Gpu.numSubgroups() + Gpu.subgroupId()) * T * T;
    MatrixA left = Gpu.loadMatrixA(a, at, T, MatrixElement.BFLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB right = Gpu.loadMatrixB(b, at, T, MatrixElement.BFLOAT16, MatrixLayout.ROW_MAJOR);
    Gpu.storeAccumulator(Gpu.multiplyAdd(left, right, Gpu.fillAccumulator(0f)), c, at, T, MatrixLayout.ROW_MAJOR);
  }

  /**
   * One 16 x 16 product per subgroup of 32 whose factors are staged in workgroup memory of 16-bit
   * values first, and {@code copies} gets the staged shorts back as ints (Java's widening of them).
   */
  @Kernel(workgroup = {32})
  static void stagedTile(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, @Buffer(Access.WRITE) int[] copies) {
    short[] left = Gpu.sharedPackedShorts(T * T);
    short[] right = Gpu.sharedPackedShorts(T * T);
    int lane = Gpu.localId(0);
    int at = Gpu.workgroupId(0) * T * T;
    for (int e = lane; e < T * T; e += 32) {
      left[e] = a[at + e];
      right[e] = b[at + e];
    }
    Gpu.barrier();
    for (int e = lane; e < T * T; e += 32) {
      copies[at + e] = left[e] + right[e] * 65536;
    }
    MatrixA x = Gpu.loadMatrixA(left, 0, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB y = Gpu.loadMatrixB(right, 0, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    Gpu.storeAccumulator(Gpu.multiplyAdd(x, y, Gpu.fillAccumulator(0f)), c, at, T, MatrixLayout.ROW_MAJOR);
  }

  /**
   * {@link #stagedTile} with the factors staged by {@code System.arraycopy}, 8 shorts (16 bytes) per
   * lane: workgroup memory held as 16-byte quads, which the tiles load from.
   */
  @Kernel(workgroup = {32})
  static void copiedTile(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, @Buffer(Access.WRITE) int[] copies) {
    short[] left = Gpu.sharedPackedShorts(T * T);
    short[] right = Gpu.sharedPackedShorts(T * T);
    int lane = Gpu.localId(0);
    int at = Gpu.workgroupId(0) * T * T;
    System.arraycopy(a, at + lane * 8, left, lane * 8, 8);
    System.arraycopy(b, at + lane * 8, right, lane * 8, 8);
    Gpu.barrier();
    for (int e = lane; e < T * T; e += 32) {
      copies[at + e] = left[e] + right[e] * 65536;
    }
    MatrixA x = Gpu.loadMatrixA(left, 0, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB y = Gpu.loadMatrixB(right, 0, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    Gpu.storeAccumulator(Gpu.multiplyAdd(x, y, Gpu.fillAccumulator(0f)), c, at, T, MatrixLayout.ROW_MAJOR);
  }

  /**
   * {@code d = half(a b) e}, one 16 x 16 tile per subgroup of 32: the first product goes into
   * workgroup memory, is rounded to float16 there ({@code Float.floatToFloat16}) and comes back as
   * the left factor of the second, as a fused kernel feeds one product into the next (attention's
   * scores, then their product with the values).
   */
  @Kernel(workgroup = {32})
  static void chainedTile(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ) short[] e, @Buffer(Access.WRITE) float[] d) {
    float[] first = Gpu.sharedFloats(T * T);
    short[] rounded = Gpu.sharedPackedShorts(T * T);
    int at = Gpu.workgroupId(0) * T * T;
    MatrixA x = Gpu.loadMatrixA(a, at, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB y = Gpu.loadMatrixB(b, at, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    Gpu.storeAccumulator(Gpu.multiplyAdd(x, y, Gpu.fillAccumulator(0f)), first, 0, T, MatrixLayout.ROW_MAJOR);
    Gpu.barrier();
    for (int i = Gpu.localId(0); i < T * T; i += 32) {
      rounded[i] = Float.floatToFloat16(first[i]);
    }
    Gpu.barrier();
    MatrixA left = Gpu.loadMatrixA(rounded, 0, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB right = Gpu.loadMatrixB(e, at, T, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    Gpu.storeAccumulator(Gpu.multiplyAdd(left, right, Gpu.fillAccumulator(0f)), d, at, T, MatrixLayout.ROW_MAJOR);
  }
}
