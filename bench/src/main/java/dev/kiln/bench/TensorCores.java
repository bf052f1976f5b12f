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
 * 6 per 8), with and without the tiles' extent checks; and the GLSL twin's algorithm
 * ({@code glsl/hgemm128.shaderc.comp}): a 128 x 128 block per workgroup of 8 subgroups, 32 columns of
 * {@code a} and rows of {@code b} at a time staged in workgroup memory of 16-bit values (one short
 * per invocation and copy, where the twin copies 16 bytes); and the same with the next stage loaded
 * into private arrays during this one's multiply-adds by 16-byte copies ({@code System.arraycopy} of
 * 8 shorts) and 64 of k per stage (the GLSL variant {@code hgemm128pf64}); and the fastest twin's
 * shape, 128 x 256 per workgroup ({@code hgemm128x256pf}). Dimensions are multiples of 64 (128 for
 * the staged and prefetching ones, 256 for the columns of the wide one; they compute nothing unless
 * the workgroup has 8 subgroups).
 */
final class TensorCores {
  static final int SIDE = 64;
  static final int WORKGROUP = 128;
  private static final int T = 16;
  /** Rows and columns of {@code c} per workgroup of the staged kernels. */
  static final int STAGED = 128;
  private static final int DEPTH = 32;
  private static final int STRIDE_A = DEPTH + 8;
  private static final int STRIDE_B = STAGED + 8;

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

  /** The staged product, {@code c = a b}. */
  @Kernel(workgroup = {16, 16})
  static void staged(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED * STRIDE_A); // [row][k], rows padded
    short[] blockB = Gpu.sharedPackedShorts(DEPTH * STRIDE_B); // [k][column]
    stagedProduct(a, b, c, n, blockA, blockB);
  }

  /** {@link #staged} without index checks. */
  @Kernel(workgroup = {16, 16}, boundsChecks = false)
  static void stagedUnchecked(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED * STRIDE_A);
    short[] blockB = Gpu.sharedPackedShorts(DEPTH * STRIDE_B);
    stagedProduct(a, b, c, n, blockA, blockB);
  }

  /** The body of both staged kernels, inlined into each; {@code blockA} and {@code blockB} are their workgroup memory. */
  private static void stagedProduct(short[] a, short[] b, float[] c, int n, short[] blockA, short[] blockB) {
    int self = Gpu.localId(1) * 16 + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * STAGED;
    int firstColumn = Gpu.workgroupId(0) * STAGED;
    int warpRow = Gpu.subgroupId() / 4 * 64;
    int warpColumn = Gpu.subgroupId() % 4 * 32;
    if (Gpu.numSubgroups() == 8) {
      MatrixAccumulator c00 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c01 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c10 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c11 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c20 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c21 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c30 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c31 = Gpu.fillAccumulator(0f);
      for (int k0 = 0; k0 < n; k0 += DEPTH) {
        for (int part = 0; part < STAGED * DEPTH / 256; part++) {
          int index = self + part * 256;
          blockA[index / DEPTH * STRIDE_A + index % DEPTH] = a[(firstRow + index / DEPTH) * n + k0 + index % DEPTH];
          blockB[index / STAGED * STRIDE_B + index % STAGED] = b[(k0 + index / STAGED) * n + firstColumn + index % STAGED];
        }
        Gpu.barrier();
        for (int k = 0; k < DEPTH; k += T) {
          MatrixA a0 = Gpu.loadMatrixA(blockA, (warpRow + 0 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixA a1 = Gpu.loadMatrixA(blockA, (warpRow + 1 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixA a2 = Gpu.loadMatrixA(blockA, (warpRow + 2 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixA a3 = Gpu.loadMatrixA(blockA, (warpRow + 3 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixB b0 = Gpu.loadMatrixB(blockB, k * STRIDE_B + warpColumn + 0 * T, STRIDE_B, FLOAT16, ROW_MAJOR);
          MatrixB b1 = Gpu.loadMatrixB(blockB, k * STRIDE_B + warpColumn + 1 * T, STRIDE_B, FLOAT16, ROW_MAJOR);
          c00 = Gpu.multiplyAdd(a0, b0, c00);
          c01 = Gpu.multiplyAdd(a0, b1, c01);
          c10 = Gpu.multiplyAdd(a1, b0, c10);
          c11 = Gpu.multiplyAdd(a1, b1, c11);
          c20 = Gpu.multiplyAdd(a2, b0, c20);
          c21 = Gpu.multiplyAdd(a2, b1, c21);
          c30 = Gpu.multiplyAdd(a3, b0, c30);
          c31 = Gpu.multiplyAdd(a3, b1, c31);
        }
        Gpu.barrier();
      }
      Gpu.storeAccumulator(c00, c, (firstRow + warpRow + 0 * T) * n + firstColumn + warpColumn + 0 * T, n,
          ROW_MAJOR);
      Gpu.storeAccumulator(c01, c, (firstRow + warpRow + 0 * T) * n + firstColumn + warpColumn + 1 * T, n,
          ROW_MAJOR);
      Gpu.storeAccumulator(c10, c, (firstRow + warpRow + 1 * T) * n + firstColumn + warpColumn + 0 * T, n,
          ROW_MAJOR);
      Gpu.storeAccumulator(c11, c, (firstRow + warpRow + 1 * T) * n + firstColumn + warpColumn + 1 * T, n,
          ROW_MAJOR);
      Gpu.storeAccumulator(c20, c, (firstRow + warpRow + 2 * T) * n + firstColumn + warpColumn + 0 * T, n,
          ROW_MAJOR);
      Gpu.storeAccumulator(c21, c, (firstRow + warpRow + 2 * T) * n + firstColumn + warpColumn + 1 * T, n,
          ROW_MAJOR);
      Gpu.storeAccumulator(c30, c, (firstRow + warpRow + 3 * T) * n + firstColumn + warpColumn + 0 * T, n,
          ROW_MAJOR);
      Gpu.storeAccumulator(c31, c, (firstRow + warpRow + 3 * T) * n + firstColumn + warpColumn + 1 * T, n,
          ROW_MAJOR);
    }
  }

  /** Of k per stage in the prefetching kernels. */
  private static final int DEEP = 64;
  private static final int STRIDE_DEEP_A = DEEP + 8;
  /** The 16-byte quads of {@code a} (and of {@code b}) each of 256 invocations moves per stage of the prefetching kernels. */
  private static final int QUADS = STAGED * DEEP / 8 / 256;

  /**
   * The staged product with the next stage's quads copied into private arrays before this stage's
   * multiply-adds, so that the loads overlap them, and 64 of k per stage: the shape of the GLSL
   * variant {@code hgemm128pf64}, written plainly, with {@code System.arraycopy} of 8 shorts (16
   * bytes) where the twin moves a uvec4.
   */
  @Kernel(workgroup = {16, 16})
  static void prefetched(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED * STRIDE_DEEP_A); // [row][k], rows padded
    short[] blockB = Gpu.sharedPackedShorts(DEEP * STRIDE_B); // [k][column]
    prefetchedProduct(a, b, c, n, blockA, blockB);
  }

  /** {@link #prefetched} without index checks. */
  @Kernel(workgroup = {16, 16}, boundsChecks = false)
  static void prefetchedUnchecked(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED * STRIDE_DEEP_A);
    short[] blockB = Gpu.sharedPackedShorts(DEEP * STRIDE_B);
    prefetchedProduct(a, b, c, n, blockA, blockB);
  }

  /** The body of both prefetching kernels. */
  private static void prefetchedProduct(short[] a, short[] b, float[] c, int n, short[] blockA, short[] blockB) {
    int self = Gpu.localId(1) * 16 + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * STAGED;
    int firstColumn = Gpu.workgroupId(0) * STAGED;
    int warp = Gpu.subgroupId() % 8; // the subgroup itself (8 of them, below), its range visible to the bounds analysis
    int warpRow = warp / 4 * 64;
    int warpColumn = warp % 4 * 32;
    if (Gpu.numSubgroups() == 8) {
      MatrixAccumulator c00 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c01 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c10 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c11 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c20 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c21 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c30 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c31 = Gpu.fillAccumulator(0f);
      short[] nextA = new short[QUADS * 8];
      short[] nextB = new short[QUADS * 8];
      for (int move = 0; move < QUADS; move++) {
        int quad = self + move * 256;
        System.arraycopy(a, (firstRow + quad / (DEEP / 8)) * n + quad % (DEEP / 8) * 8, nextA, move * 8, 8);
        System.arraycopy(b, quad / (STAGED / 8) * n + firstColumn + quad % (STAGED / 8) * 8, nextB, move * 8, 8);
      }
      for (int k0 = 0; k0 < n; k0 += DEEP) {
        Gpu.barrier(); // the last stage's tile loads are done
        for (int move = 0; move < QUADS; move++) {
          int quad = self + move * 256;
          System.arraycopy(nextA, move * 8, blockA, quad / (DEEP / 8) * STRIDE_DEEP_A + quad % (DEEP / 8) * 8, 8);
          System.arraycopy(nextB, move * 8, blockB, quad / (STAGED / 8) * STRIDE_B + quad % (STAGED / 8) * 8, 8);
        }
        Gpu.barrier();
        if (k0 + DEEP < n) {
          for (int move = 0; move < QUADS; move++) {
            int quad = self + move * 256;
            System.arraycopy(a, (firstRow + quad / (DEEP / 8)) * n + k0 + DEEP + quad % (DEEP / 8) * 8, nextA, move * 8,
                8);
            System.arraycopy(b, (k0 + DEEP + quad / (STAGED / 8)) * n + firstColumn + quad % (STAGED / 8) * 8, nextB,
                move * 8, 8);
          }
        }
        for (int k = 0; k < DEEP; k += T) {
          MatrixA a0 = Gpu.loadMatrixA(blockA, (warpRow + 0 * T) * STRIDE_DEEP_A + k, STRIDE_DEEP_A, FLOAT16, ROW_MAJOR);
          MatrixA a1 = Gpu.loadMatrixA(blockA, (warpRow + 1 * T) * STRIDE_DEEP_A + k, STRIDE_DEEP_A, FLOAT16, ROW_MAJOR);
          MatrixA a2 = Gpu.loadMatrixA(blockA, (warpRow + 2 * T) * STRIDE_DEEP_A + k, STRIDE_DEEP_A, FLOAT16, ROW_MAJOR);
          MatrixA a3 = Gpu.loadMatrixA(blockA, (warpRow + 3 * T) * STRIDE_DEEP_A + k, STRIDE_DEEP_A, FLOAT16, ROW_MAJOR);
          MatrixB b0 = Gpu.loadMatrixB(blockB, k * STRIDE_B + warpColumn + 0 * T, STRIDE_B, FLOAT16, ROW_MAJOR);
          MatrixB b1 = Gpu.loadMatrixB(blockB, k * STRIDE_B + warpColumn + 1 * T, STRIDE_B, FLOAT16, ROW_MAJOR);
          c00 = Gpu.multiplyAdd(a0, b0, c00);
          c01 = Gpu.multiplyAdd(a0, b1, c01);
          c10 = Gpu.multiplyAdd(a1, b0, c10);
          c11 = Gpu.multiplyAdd(a1, b1, c11);
          c20 = Gpu.multiplyAdd(a2, b0, c20);
          c21 = Gpu.multiplyAdd(a2, b1, c21);
          c30 = Gpu.multiplyAdd(a3, b0, c30);
          c31 = Gpu.multiplyAdd(a3, b1, c31);
        }
      }
      int row = firstRow + warpRow;
      int column = firstColumn + warpColumn;
      Gpu.storeAccumulator(c00, c, (row + 0 * T) * n + column + 0 * T, n, ROW_MAJOR);
      Gpu.storeAccumulator(c01, c, (row + 0 * T) * n + column + 1 * T, n, ROW_MAJOR);
      Gpu.storeAccumulator(c10, c, (row + 1 * T) * n + column + 0 * T, n, ROW_MAJOR);
      Gpu.storeAccumulator(c11, c, (row + 1 * T) * n + column + 1 * T, n, ROW_MAJOR);
      Gpu.storeAccumulator(c20, c, (row + 2 * T) * n + column + 0 * T, n, ROW_MAJOR);
      Gpu.storeAccumulator(c21, c, (row + 2 * T) * n + column + 1 * T, n, ROW_MAJOR);
      Gpu.storeAccumulator(c30, c, (row + 3 * T) * n + column + 0 * T, n, ROW_MAJOR);
      Gpu.storeAccumulator(c31, c, (row + 3 * T) * n + column + 1 * T, n, ROW_MAJOR);
    }
  }

  /** Columns of {@code c} per workgroup of the wide prefetching kernels (rows: {@link #STAGED}). */
  static final int WIDE = 256;
  private static final int STRIDE_WIDE_B = WIDE + 8;
  /** Quads of {@code a} and of {@code b} each of 256 invocations moves per stage (32 of k) of the wide kernels. */
  private static final int QUADS_WIDE_A = STAGED * DEPTH / 8 / 256;
  private static final int QUADS_WIDE_B = DEPTH * WIDE / 8 / 256;

  /**
   * 128 x 256 of {@code c} per workgroup, 64 x 64 (4 x 4 tiles) per subgroup, 32 of k per stage, the
   * next stage prefetched into private arrays by 16-byte copies: the GLSL variant
   * {@code hgemm128x256pf}, the fastest twin, written plainly.
   */
  @Kernel(workgroup = {16, 16})
  static void prefetchedWide(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED * STRIDE_A);
    short[] blockB = Gpu.sharedPackedShorts(DEPTH * STRIDE_WIDE_B);
    prefetchedWideProduct(a, b, c, n, blockA, blockB);
  }

  /** {@link #prefetchedWide} without index checks. */
  @Kernel(workgroup = {16, 16}, boundsChecks = false)
  static void prefetchedWideUnchecked(@Buffer(Access.READ) short[] a, @Buffer(Access.READ) short[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED * STRIDE_A);
    short[] blockB = Gpu.sharedPackedShorts(DEPTH * STRIDE_WIDE_B);
    prefetchedWideProduct(a, b, c, n, blockA, blockB);
  }

  /** The body of both wide prefetching kernels. */
  private static void prefetchedWideProduct(short[] a, short[] b, float[] c, int n, short[] blockA, short[] blockB) {
    int self = Gpu.localId(1) * 16 + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * STAGED;
    int firstColumn = Gpu.workgroupId(0) * WIDE;
    int warp = Gpu.subgroupId() % 8; // the subgroup itself (8 of them, below), its range visible to the bounds analysis
    int warpRow = warp / 4 * 64;
    int warpColumn = warp % 4 * 64;
    // n is a multiple of 256 (the launcher's contract); written as n & -8, the row length is a
    // known multiple of 8, so every copy from a and b is proven 16-byte aligned and moves a quad
    // with no test at run time (docs/PERFORMANCE.md, "16-byte copies")
    int width = n & -8;
    if (Gpu.numSubgroups() == 8) {
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
      short[] nextA = new short[QUADS_WIDE_A * 8];
      short[] nextB = new short[QUADS_WIDE_B * 8];
      for (int move = 0; move < QUADS_WIDE_A; move++) {
        int quad = self + move * 256;
        System.arraycopy(a, (firstRow + quad / (DEPTH / 8)) * width + quad % (DEPTH / 8) * 8, nextA, move * 8, 8);
      }
      for (int move = 0; move < QUADS_WIDE_B; move++) {
        int quad = self + move * 256;
        System.arraycopy(b, quad / (WIDE / 8) * width + firstColumn + quad % (WIDE / 8) * 8, nextB, move * 8, 8);
      }
      for (int k0 = 0; k0 < n; k0 += DEPTH) {
        Gpu.barrier(); // the last stage's tile loads are done
        for (int move = 0; move < QUADS_WIDE_A; move++) {
          int quad = self + move * 256;
          System.arraycopy(nextA, move * 8, blockA, quad / (DEPTH / 8) * STRIDE_A + quad % (DEPTH / 8) * 8, 8);
        }
        for (int move = 0; move < QUADS_WIDE_B; move++) {
          int quad = self + move * 256;
          System.arraycopy(nextB, move * 8, blockB, quad / (WIDE / 8) * STRIDE_WIDE_B + quad % (WIDE / 8) * 8, 8);
        }
        Gpu.barrier();
        if (k0 + DEPTH < n) {
          for (int move = 0; move < QUADS_WIDE_A; move++) {
            int quad = self + move * 256;
            System.arraycopy(a, (firstRow + quad / (DEPTH / 8)) * width + k0 + DEPTH + quad % (DEPTH / 8) * 8, nextA,
                move * 8, 8);
          }
          for (int move = 0; move < QUADS_WIDE_B; move++) {
            int quad = self + move * 256;
            System.arraycopy(b, (k0 + DEPTH + quad / (WIDE / 8)) * width + firstColumn + quad % (WIDE / 8) * 8, nextB,
                move * 8, 8);
          }
        }
        for (int k = 0; k < DEPTH; k += T) {
          MatrixA a0 = Gpu.loadMatrixA(blockA, (warpRow + 0 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixA a1 = Gpu.loadMatrixA(blockA, (warpRow + 1 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixA a2 = Gpu.loadMatrixA(blockA, (warpRow + 2 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixA a3 = Gpu.loadMatrixA(blockA, (warpRow + 3 * T) * STRIDE_A + k, STRIDE_A, FLOAT16, ROW_MAJOR);
          MatrixB b0 = Gpu.loadMatrixB(blockB, k * STRIDE_WIDE_B + warpColumn + 0 * T, STRIDE_WIDE_B, FLOAT16, ROW_MAJOR);
          MatrixB b1 = Gpu.loadMatrixB(blockB, k * STRIDE_WIDE_B + warpColumn + 1 * T, STRIDE_WIDE_B, FLOAT16, ROW_MAJOR);
          MatrixB b2 = Gpu.loadMatrixB(blockB, k * STRIDE_WIDE_B + warpColumn + 2 * T, STRIDE_WIDE_B, FLOAT16, ROW_MAJOR);
          MatrixB b3 = Gpu.loadMatrixB(blockB, k * STRIDE_WIDE_B + warpColumn + 3 * T, STRIDE_WIDE_B, FLOAT16, ROW_MAJOR);
          c00 = Gpu.multiplyAdd(a0, b0, c00);
          c10 = Gpu.multiplyAdd(a1, b0, c10);
          c20 = Gpu.multiplyAdd(a2, b0, c20);
          c30 = Gpu.multiplyAdd(a3, b0, c30);
          c01 = Gpu.multiplyAdd(a0, b1, c01);
          c11 = Gpu.multiplyAdd(a1, b1, c11);
          c21 = Gpu.multiplyAdd(a2, b1, c21);
          c31 = Gpu.multiplyAdd(a3, b1, c31);
          c02 = Gpu.multiplyAdd(a0, b2, c02);
          c12 = Gpu.multiplyAdd(a1, b2, c12);
          c22 = Gpu.multiplyAdd(a2, b2, c22);
          c32 = Gpu.multiplyAdd(a3, b2, c32);
          c03 = Gpu.multiplyAdd(a0, b3, c03);
          c13 = Gpu.multiplyAdd(a1, b3, c13);
          c23 = Gpu.multiplyAdd(a2, b3, c23);
          c33 = Gpu.multiplyAdd(a3, b3, c33);
        }
      }
      int row = firstRow + warpRow;
      int column = firstColumn + warpColumn;
      Gpu.storeAccumulator(c00, c, (row + 0 * T) * width + column + 0 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c01, c, (row + 0 * T) * width + column + 1 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c02, c, (row + 0 * T) * width + column + 2 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c03, c, (row + 0 * T) * width + column + 3 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c10, c, (row + 1 * T) * width + column + 0 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c11, c, (row + 1 * T) * width + column + 1 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c12, c, (row + 1 * T) * width + column + 2 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c13, c, (row + 1 * T) * width + column + 3 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c20, c, (row + 2 * T) * width + column + 0 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c21, c, (row + 2 * T) * width + column + 1 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c22, c, (row + 2 * T) * width + column + 2 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c23, c, (row + 2 * T) * width + column + 3 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c30, c, (row + 3 * T) * width + column + 0 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c31, c, (row + 3 * T) * width + column + 1 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c32, c, (row + 3 * T) * width + column + 2 * T, width, ROW_MAJOR);
      Gpu.storeAccumulator(c33, c, (row + 3 * T) * width + column + 3 * T, width, ROW_MAJOR);
    }
  }
}
