package dev.kiln.library;

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
 * The kernels behind {@link Gemm}'s 16-bit products on devices that multiply cooperative-matrix
 * tiles in hardware ({@code Device.multipliesTiles}): the bench's {@code
 * TensorCores.prefetchedWide} (at its GLSL twin's speed on the H200) for any shape, either operand
 * transposed, and {@link GemmKernels}' epilogue. A workgroup of 8 subgroups of 32 computes a {@link
 * #ROWS} x {@link #COLUMNS} block of {@code c}, each subgroup 64 x 64 of it as 4 x 4 accumulator
 * tiles; the factors pass through workgroup memory {@link #DEPTH} values of k at a time, in 16-byte
 * quads of 8 elements, the next stage read into private arrays while this one multiplies, and zeros
 * past the matrices' edges (tested only in the stages that have one). A transposed operand is
 * staged as it lies in memory and its tiles load column-major. A block inside {@code c} whose
 * epilogue is at most {@code alpha} and {@code beta} stores its tiles from the registers, as the
 * bench's kernel does; any other passes each tile through workgroup memory to the epilogue, which
 * writes the entries inside {@code c}.
 *
 * <p>As {@link GemmKernels}', these kernels run without device index checks: {@link Gemm} checks
 * the arrays against the shape before it launches them, and every buffer access tests the product's
 * edges. The checks cost the bench's {@code prefetchedWide} 12-27 % (268.8 against 235.8 and 256.4
 * against 188.0 TFLOP/s on the H200), and no launch proof settles them (the fetches' indices are
 * products of a quotient and a row distance). The CPU backend checks every access.
 */
final class TileGemmKernels {
  /** Rows and columns of {@code c} per workgroup. */
  static final int ROWS = Tuning.TILE_GEMM_ROWS;

  static final int COLUMNS = Tuning.TILE_GEMM_COLUMNS;

  /** Of k per stage. */
  private static final int DEPTH = Tuning.TILE_GEMM_DEPTH;

  /** A tile's side. */
  private static final int T = 16;

  /** Elements of a quad: 16 bytes of 16-bit values. */
  private static final int QUAD = 8;

  /** Elements that pad each staged row, so that the rows of a tile fall in different banks. */
  private static final int PAD = 8;

  /** Invocations of a workgroup. */
  private static final int INVOCATIONS = 256;

  /**
   * Staged elements of {@code a} and {@code b}: those of the layout along k, {@code [o][k]}, which
   * holds more than {@code [k][o]} does ({@code o (DEPTH + PAD) > DEPTH (o + PAD)} as {@code o >
   * DEPTH}).
   */
  private static final int STAGED_A = ROWS * (DEPTH + PAD);

  private static final int STAGED_B = COLUMNS * (DEPTH + PAD);

  /** Quads of {@code a} and of {@code b} each invocation moves per stage. */
  private static final int QUADS_A = ROWS * DEPTH / QUAD / INVOCATIONS;

  private static final int QUADS_B = COLUMNS * DEPTH / QUAD / INVOCATIONS;

  private TileGemmKernels() {}

  /**
   * {@code GemmKernels.halves} on tensor cores: {@code c = epilogue(alpha · op(a) · op(b) + beta ·
   * c)}, float16 factors.
   */
  @Kernel(
      workgroup = {16, 16},
      boundsChecks = false)
  @SuppressWarnings("kiln.race.update") // c[offsetC + row * ldc + column]: each subgroup's own
  static void halves(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ_WRITE) float[] c,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.READ) float[] residual,
      int m,
      int n,
      int k,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int offsetC,
      int ldc,
      int transA,
      int transB,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED_A);
    short[] blockB = Gpu.sharedPackedShorts(STAGED_B);
    float[] scratch = Gpu.sharedFloats(INVOCATIONS / 32 * T * T);
    layouts(
        a,
        b,
        c,
        bias,
        residual,
        blockA,
        blockB,
        scratch,
        m,
        n,
        0,
        k,
        offsetA,
        lda,
        offsetB,
        ldb,
        offsetC,
        ldc,
        transA,
        transB,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual,
        MatrixElement.FLOAT16);
  }

  /** {@link #halves} for bfloat16 factors. */
  @Kernel(
      workgroup = {16, 16},
      boundsChecks = false)
  @SuppressWarnings("kiln.race.update") // c[offsetC + row * ldc + column]: each subgroup's own
  static void bfloats(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ_WRITE) float[] c,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.READ) float[] residual,
      int m,
      int n,
      int k,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int offsetC,
      int ldc,
      int transA,
      int transB,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED_A);
    short[] blockB = Gpu.sharedPackedShorts(STAGED_B);
    float[] scratch = Gpu.sharedFloats(INVOCATIONS / 32 * T * T);
    layouts(
        a,
        b,
        c,
        bias,
        residual,
        blockA,
        blockB,
        scratch,
        m,
        n,
        0,
        k,
        offsetA,
        lda,
        offsetB,
        ldb,
        offsetC,
        ldc,
        transA,
        transB,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual,
        MatrixElement.BFLOAT16);
  }

  /**
   * {@link #halves} where the offsets and row distances of {@code a} and {@code b} are multiples of
   * 8 elements (the launcher's contract, written {@code & -8}, so that the compiler sees every
   * 16-byte copy of the factors aligned and makes no test at run time).
   */
  @Kernel(
      workgroup = {16, 16},
      boundsChecks = false)
  @SuppressWarnings("kiln.race.update") // c[offsetC + row * ldc + column]: each subgroup's own
  static void halvesInOctets(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ_WRITE) float[] c,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.READ) float[] residual,
      int m,
      int n,
      int k,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int offsetC,
      int ldc,
      int transA,
      int transB,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED_A);
    short[] blockB = Gpu.sharedPackedShorts(STAGED_B);
    float[] scratch = Gpu.sharedFloats(INVOCATIONS / 32 * T * T);
    layouts(
        a,
        b,
        c,
        bias,
        residual,
        blockA,
        blockB,
        scratch,
        m,
        n,
        0,
        k,
        offsetA & -8,
        lda & -8,
        offsetB & -8,
        ldb & -8,
        offsetC,
        ldc,
        transA,
        transB,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual,
        MatrixElement.FLOAT16);
  }

  /** {@link #halvesInOctets} for bfloat16 factors. */
  @Kernel(
      workgroup = {16, 16},
      boundsChecks = false)
  @SuppressWarnings("kiln.race.update") // c[offsetC + row * ldc + column]: each subgroup's own
  static void bfloatsInOctets(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ_WRITE) float[] c,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.READ) float[] residual,
      int m,
      int n,
      int k,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int offsetC,
      int ldc,
      int transA,
      int transB,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED_A);
    short[] blockB = Gpu.sharedPackedShorts(STAGED_B);
    float[] scratch = Gpu.sharedFloats(INVOCATIONS / 32 * T * T);
    layouts(
        a,
        b,
        c,
        bias,
        residual,
        blockA,
        blockB,
        scratch,
        m,
        n,
        0,
        k,
        offsetA & -8,
        lda & -8,
        offsetB & -8,
        ldb & -8,
        offsetC,
        ldc,
        transA,
        transB,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual,
        MatrixElement.BFLOAT16);
  }

  /**
   * One slice of k of a product of few blocks (split-k): {@link #halvesInOctets}' product over k
   * from {@code s · depth} (a multiple of {@link #DEPTH}) to the next slice or k in workgroup
   * {@code (x, y, s)}, its sums written to {@code parts} (slice s an m x n matrix at {@code s · m ·
   * ldp}, its rows {@code ldp} apart, a multiple of 4), for {@code GemmKernels.sumSlices} to add up
   * and finish.
   */
  @Kernel(
      workgroup = {16, 16},
      boundsChecks = false)
  @SuppressWarnings("kiln.race.update") // parts[s * m * ldp + row * ldp + column]: a subgroup's own
  static void halvesSlicesInOctets(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ_WRITE) float[] parts,
      int m,
      int n,
      int k,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int transA,
      int transB,
      int depth,
      int ldp) {
    slice(
        a,
        b,
        parts,
        m,
        n,
        k,
        offsetA,
        lda,
        offsetB,
        ldb,
        transA,
        transB,
        depth,
        ldp,
        MatrixElement.FLOAT16);
  }

  /** {@link #halvesSlicesInOctets} for bfloat16 factors. */
  @Kernel(
      workgroup = {16, 16},
      boundsChecks = false)
  @SuppressWarnings("kiln.race.update") // parts[s * m * ldp + row * ldp + column]: a subgroup's own
  static void bfloatsSlicesInOctets(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ_WRITE) float[] parts,
      int m,
      int n,
      int k,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int transA,
      int transB,
      int depth,
      int ldp) {
    slice(
        a,
        b,
        parts,
        m,
        n,
        k,
        offsetA,
        lda,
        offsetB,
        ldb,
        transA,
        transB,
        depth,
        ldp,
        MatrixElement.BFLOAT16);
  }

  /** The body of the slice kernels; {@code element} says which 16-bit format. */
  private static void slice(
      short[] a,
      short[] b,
      float[] parts,
      int m,
      int n,
      int k,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int transA,
      int transB,
      int depth,
      int ldp,
      MatrixElement element) {
    short[] blockA = Gpu.sharedPackedShorts(STAGED_A);
    short[] blockB = Gpu.sharedPackedShorts(STAGED_B);
    float[] scratch = Gpu.sharedFloats(INVOCATIONS / 32 * T * T);
    int begin = Gpu.workgroupId(2) * (depth & -DEPTH);
    layouts(
        a,
        b,
        parts,
        parts,
        parts,
        blockA,
        blockB,
        scratch,
        m,
        n,
        begin,
        Math.min(k, begin + (depth & -DEPTH)),
        offsetA & -8,
        lda & -8,
        offsetB & -8,
        ldb & -8,
        Gpu.workgroupId(2) * m * (ldp & -4),
        ldp & -4,
        transA,
        transB,
        1f,
        0f,
        0,
        GemmKernels.NONE,
        0,
        element);
  }

  /**
   * {@link #product} with the tiles' layouts the transposes call for, as constants: row-major where
   * the operand is not transposed.
   */
  private static void layouts(
      short[] a,
      short[] b,
      float[] c,
      float[] bias,
      float[] residual,
      short[] blockA,
      short[] blockB,
      float[] scratch,
      int m,
      int n,
      int begin,
      int end,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int offsetC,
      int ldc,
      int transA,
      int transB,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual,
      MatrixElement element) {
    if (transA == 0 && transB == 0) {
      product(
          a,
          b,
          c,
          bias,
          residual,
          blockA,
          blockB,
          scratch,
          m,
          n,
          begin,
          end,
          offsetA,
          lda,
          offsetB,
          ldb,
          offsetC,
          ldc,
          alpha,
          beta,
          biasAxis,
          activation,
          withResidual,
          element,
          MatrixLayout.ROW_MAJOR,
          MatrixLayout.ROW_MAJOR,
          1,
          0);
    } else if (transA == 0) {
      product(
          a,
          b,
          c,
          bias,
          residual,
          blockA,
          blockB,
          scratch,
          m,
          n,
          begin,
          end,
          offsetA,
          lda,
          offsetB,
          ldb,
          offsetC,
          ldc,
          alpha,
          beta,
          biasAxis,
          activation,
          withResidual,
          element,
          MatrixLayout.ROW_MAJOR,
          MatrixLayout.COLUMN_MAJOR,
          1,
          1);
    } else if (transB == 0) {
      product(
          a,
          b,
          c,
          bias,
          residual,
          blockA,
          blockB,
          scratch,
          m,
          n,
          begin,
          end,
          offsetA,
          lda,
          offsetB,
          ldb,
          offsetC,
          ldc,
          alpha,
          beta,
          biasAxis,
          activation,
          withResidual,
          element,
          MatrixLayout.COLUMN_MAJOR,
          MatrixLayout.ROW_MAJOR,
          0,
          0);
    } else {
      product(
          a,
          b,
          c,
          bias,
          residual,
          blockA,
          blockB,
          scratch,
          m,
          n,
          begin,
          end,
          offsetA,
          lda,
          offsetB,
          ldb,
          offsetC,
          ldc,
          alpha,
          beta,
          biasAxis,
          activation,
          withResidual,
          element,
          MatrixLayout.COLUMN_MAJOR,
          MatrixLayout.COLUMN_MAJOR,
          0,
          1);
    }
  }

  /**
   * The product over k from {@code begin} (a multiple of {@link #DEPTH}) to {@code end} and the
   * epilogue of one workgroup's block, the tiles held as {@code element} and {@code layoutA},
   * {@code layoutB} (row-major where the operand is not transposed). {@code alongA} and {@code
   * alongB}, constants as the layouts are, say the same as ints (1 where the operand's rows run
   * along k: a not transposed, b transposed), so that the staged blocks' strides are constants of
   * the module (with strides the driver does not know, its tile loads from workgroup memory are
   * slower).
   */
  private static void product(
      short[] a,
      short[] b,
      float[] c,
      float[] bias,
      float[] residual,
      short[] blockA,
      short[] blockB,
      float[] scratch,
      int m,
      int n,
      int begin,
      int end,
      int offsetA,
      int lda,
      int offsetB,
      int ldb,
      int offsetC,
      int ldc,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual,
      MatrixElement element,
      MatrixLayout layoutA,
      MatrixLayout layoutB,
      int alongA,
      int alongB) {
    int self = Gpu.localId(1) * 16 + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * ROWS;
    int firstColumn = Gpu.workgroupId(0) * COLUMNS;
    int warp = Gpu.subgroupId() % 8; // 8 subgroups of 32 (the launcher's contract)
    int warpRow = warp / 4 * 64;
    int warpColumn = warp % 4 * 64;
    // a tile's first element: row steps and k steps through the staged block, by its layout
    int strideA = alongA != 0 ? DEPTH + PAD : ROWS + PAD;
    int rowStepA = alongA != 0 ? strideA : 1;
    int kStepA = alongA != 0 ? 1 : strideA;
    int strideB = alongB != 0 ? DEPTH + PAD : COLUMNS + PAD;
    int columnStepB = alongB != 0 ? strideB : 1;
    int kStepB = alongB != 0 ? 1 : strideB;
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
    short[] nextA = new short[QUADS_A * QUAD];
    short[] nextB = new short[QUADS_B * QUAD];
    fetchStage(a, offsetA, lda, alongA, m, firstRow, ROWS, begin, end, self, nextA, QUADS_A);
    fetchStage(b, offsetB, ldb, alongB, n, firstColumn, COLUMNS, begin, end, self, nextB, QUADS_B);
    for (int k0 = begin; k0 < end; k0 += DEPTH) {
      Gpu.barrier(); // the last stage's tile loads are done
      for (int move = 0; move < QUADS_A; move++) {
        place(nextA, move * QUAD, blockA, alongA, ROWS, self + move * INVOCATIONS);
      }
      for (int move = 0; move < QUADS_B; move++) {
        place(nextB, move * QUAD, blockB, alongB, COLUMNS, self + move * INVOCATIONS);
      }
      Gpu.barrier();
      if (k0 + DEPTH < end) {
        fetchStage(
            a, offsetA, lda, alongA, m, firstRow, ROWS, k0 + DEPTH, end, self, nextA, QUADS_A);
        fetchStage(
            b,
            offsetB,
            ldb,
            alongB,
            n,
            firstColumn,
            COLUMNS,
            k0 + DEPTH,
            end,
            self,
            nextB,
            QUADS_B);
      }
      for (int kk = 0; kk < DEPTH; kk += T) {
        MatrixA a0 =
            Gpu.loadMatrixA(
                blockA, (warpRow + 0 * T) * rowStepA + kk * kStepA, strideA, element, layoutA);
        MatrixA a1 =
            Gpu.loadMatrixA(
                blockA, (warpRow + 1 * T) * rowStepA + kk * kStepA, strideA, element, layoutA);
        MatrixA a2 =
            Gpu.loadMatrixA(
                blockA, (warpRow + 2 * T) * rowStepA + kk * kStepA, strideA, element, layoutA);
        MatrixA a3 =
            Gpu.loadMatrixA(
                blockA, (warpRow + 3 * T) * rowStepA + kk * kStepA, strideA, element, layoutA);
        MatrixB b0 =
            Gpu.loadMatrixB(
                blockB,
                (warpColumn + 0 * T) * columnStepB + kk * kStepB,
                strideB,
                element,
                layoutB);
        MatrixB b1 =
            Gpu.loadMatrixB(
                blockB,
                (warpColumn + 1 * T) * columnStepB + kk * kStepB,
                strideB,
                element,
                layoutB);
        MatrixB b2 =
            Gpu.loadMatrixB(
                blockB,
                (warpColumn + 2 * T) * columnStepB + kk * kStepB,
                strideB,
                element,
                layoutB);
        MatrixB b3 =
            Gpu.loadMatrixB(
                blockB,
                (warpColumn + 3 * T) * columnStepB + kk * kStepB,
                strideB,
                element,
                layoutB);
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
    // tiles straight from the registers to c where the block lies inside c, the epilogue is at most
    // alpha and beta, and c's rows are 16-byte aligned (the stores' requirement); the condition is
    // the same in the whole workgroup, so that the other path's barriers are met by all
    boolean direct =
        biasAxis == GemmKernels.NONE
            && activation == GemmKernels.NONE
            && withResidual == 0
            && firstRow + ROWS <= m
            && firstColumn + COLUMNS <= n
            && (offsetC & 3) == 0
            && (ldc & 3) == 0;
    Gpu.barrier(); // the staged blocks' last readers are done before the epilogue's barriers
    for (int tile = 0; tile < 16; tile++) {
      MatrixAccumulator t = c00;
      if (tile == 1) {
        t = c01;
      } else if (tile == 2) {
        t = c02;
      } else if (tile == 3) {
        t = c03;
      } else if (tile == 4) {
        t = c10;
      } else if (tile == 5) {
        t = c11;
      } else if (tile == 6) {
        t = c12;
      } else if (tile == 7) {
        t = c13;
      } else if (tile == 8) {
        t = c20;
      } else if (tile == 9) {
        t = c21;
      } else if (tile == 10) {
        t = c22;
      } else if (tile == 11) {
        t = c23;
      } else if (tile == 12) {
        t = c30;
      } else if (tile == 13) {
        t = c31;
      } else if (tile == 14) {
        t = c32;
      } else if (tile == 15) {
        t = c33;
      }
      int i = row + tile / 4 * T;
      int j = column + tile % 4 * T;
      if (direct) {
        // alpha · sum + beta · old, each product and the sum rounded as entry's are
        int at = offsetC + i * ldc + j;
        if (alpha != 1f) {
          t = Gpu.scaleAccumulator(t, alpha);
        }
        if (beta != 0f) {
          MatrixAccumulator old = Gpu.loadAccumulator(c, at, ldc, MatrixLayout.ROW_MAJOR);
          t = Gpu.addAccumulators(t, Gpu.scaleAccumulator(old, beta));
        }
        Gpu.storeAccumulator(t, c, at, ldc, MatrixLayout.ROW_MAJOR);
      } else {
        Gpu.storeAccumulator(t, scratch, warp * T * T, T, MatrixLayout.ROW_MAJOR);
        Gpu.barrier();
        finishTile(
            c,
            bias,
            residual,
            scratch,
            warp,
            i,
            j,
            m,
            n,
            offsetC,
            ldc,
            alpha,
            beta,
            biasAxis,
            activation,
            withResidual);
        Gpu.barrier();
      }
    }
  }

  /**
   * Reads this invocation's {@code quads} quads of an operand's stage {@code k0} into {@code next}
   * (as {@link #fetch}). Where the stage has no edge to test, the same in the whole workgroup, the
   * copies go without tests: where the stage lies inside k and the operand lies along k (its quads
   * never cross c's edge), or the block lies inside the operand, or c's edge falls between quads
   * (the extent a multiple of {@link #QUAD}). The two loops, each with {@code inside} a constant,
   * made the 16-bit products 1.04-1.13x faster on the H100 (1.08-1.53x with b as n rows of k, whose
   * stages are all test-free; 233 and 250 TFLOP/s at 4096 and 8192, 0.97x and 0.98x the bench
   * kernel), and the edges between quads 1.25-1.48x more at ragged shapes; one loop testing the
   * flag in each quad was slower than the tests it replaced (PERFORMANCE.md).
   */
  private static void fetchStage(
      short[] x,
      int offset,
      int row,
      int alongK,
      int extent,
      int first,
      int span,
      int k0,
      int k,
      int self,
      short[] next,
      int quads) {
    if (k0 + DEPTH <= k && (alongK != 0 || first + span <= extent || extent % QUAD == 0)) {
      for (int move = 0; move < quads; move++) {
        fetch(
            x,
            offset,
            row,
            alongK,
            extent,
            first,
            span,
            k0,
            k,
            self + move * INVOCATIONS,
            next,
            move * QUAD,
            true);
      }
    } else {
      for (int move = 0; move < quads; move++) {
        fetch(
            x,
            offset,
            row,
            alongK,
            extent,
            first,
            span,
            k0,
            k,
            self + move * INVOCATIONS,
            next,
            move * QUAD,
            false);
      }
    }
  }

  /**
   * Reads quad {@code q} of an operand's stage {@code k0} into {@code next} at {@code at}. The
   * operand runs along c's rows (or columns), {@code extent} of them, the block's {@code span} from
   * {@code first}; element {@code (o, kk)} is at {@code offset + o * row + kk} where {@code alongK}
   * is not 0, else at {@code offset + kk * row + o}. One 16-byte copy inside the matrix, element by
   * element at its edges, zeros past them. Past c's edge a quad reads instead, whole, the operand's
   * last row again where the operand lies along k, or its last quad where the stage needs no test
   * ({@code inside}, a constant at each call: {@link #fetchStage}): its products land only in
   * entries of c that are never written.
   */
  private static void fetch(
      short[] x,
      int offset,
      int row,
      int alongK,
      int extent,
      int first,
      int span,
      int k0,
      int k,
      int q,
      short[] next,
      int at,
      boolean inside) {
    if (alongK != 0) {
      // a row past c's edge reads the operand's last: its products fall in rows (or columns) of c
      // that are never written
      int o = Math.min(first + q / (DEPTH / QUAD), extent - 1);
      int kk = k0 + q % (DEPTH / QUAD) * QUAD;
      if (inside || kk + QUAD <= k) {
        System.arraycopy(x, offset + o * row + kk, next, at, QUAD);
      } else {
        for (int t = 0; t < QUAD; t++) {
          next[at + t] = kk + t < k ? x[offset + o * row + kk + t] : 0;
        }
      }
    } else {
      int kk = k0 + q / (span / QUAD);
      int o = first + q % (span / QUAD) * QUAD;
      if (inside || kk < k && o + QUAD <= extent) {
        // past the edge (where inside) the last quad, counted in quads so that the index is seen a
        // multiple of one (a copy whose alignment is tested as it runs is slower)
        int from = Math.min(o / QUAD, extent / QUAD - 1) * QUAD;
        System.arraycopy(x, offset + kk * row + from, next, at, QUAD);
      } else {
        for (int t = 0; t < QUAD; t++) {
          next[at + t] = kk < k && o + t < extent ? x[offset + kk * row + o + t] : 0;
        }
      }
    }
  }

  /**
   * Stores what {@link #fetch} read into the staged block: {@code [o][k]} rows of {@code DEPTH +
   * PAD} where the operand lies along k, else {@code [k][o]} rows of {@code span + PAD}.
   */
  private static void place(short[] next, int at, short[] block, int alongK, int span, int q) {
    if (alongK != 0) {
      System.arraycopy(
          next, at, block, q / (DEPTH / QUAD) * (DEPTH + PAD) + q % (DEPTH / QUAD) * QUAD, QUAD);
    } else {
      System.arraycopy(
          next, at, block, q / (span / QUAD) * (span + PAD) + q % (span / QUAD) * QUAD, QUAD);
    }
  }

  /**
   * Writes the tile this subgroup stored in its part of {@code scratch}, whose first entry is
   * {@code (row, column)} of {@code c}, through the epilogue: each lane 8 of its 256 entries, those
   * inside {@code c}.
   */
  private static void finishTile(
      float[] c,
      float[] bias,
      float[] residual,
      float[] scratch,
      int warp,
      int row,
      int column,
      int m,
      int n,
      int offsetC,
      int ldc,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    for (int e = 0; e < T * T / 32; e++) {
      int entry = e * 32 + Gpu.subgroupInvocationId();
      int i = row + entry / T;
      int j = column + entry % T;
      if (i < m && j < n) {
        int at = offsetC + i * ldc + j;
        float old = beta != 0f ? c[at] : 0f;
        float added = withResidual != 0 ? residual[at] : 0f;
        c[at] =
            GemmKernels.entry(
                scratch[warp * T * T + entry],
                old,
                added,
                bias,
                i,
                j,
                alpha,
                beta,
                biasAxis,
                activation,
                withResidual);
      }
    }
  }
}
