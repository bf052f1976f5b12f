package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Gemm}: a register-blocked product for any shape, either operand
 * transposed, and an epilogue. A workgroup of 16 x 16 computes a {@link #BLOCK} x {@link #BLOCK}
 * block of {@code c}, each invocation an 8 x 8 tile of it (rows {@code 8y + i}, columns {@code 4x +
 * j} and {@code 64 + 4x + j}, {@code j < 4}: {@link #HALF_TILE}) in a private array; the factors
 * pass through workgroup memory {@link #DEPTH} values of k at a time, the next stage read into
 * private arrays while this one multiplies, 16 bytes per invocation and operand (the bench's {@code
 * RegisterTiles.prefetched}, 0.80x cuBLAS on the H200 at 4096, with edges). Each entry is {@code
 * Gpu.fma} summed in k order; the epilogue then runs in Java's float arithmetic, in {@link Gemm}'s
 * order. Each float kernel comes in two forms: one whose epilogue may hold a bias, an activation
 * and a residual, its block passed through workgroup memory ({@link #floats}), and one of {@code α}
 * and {@code β} alone, each tile stored from the registers ({@link #floatsScaled}: the register
 * count that lets two workgroups share a multiprocessor); products of whole blocks have a form with
 * no edge tests ({@link #floatsInBlocksScaled}), and products of few blocks sum k in slices ({@link
 * #floatSlices}, {@link #sumSlices}, which also finishes the tensor-core products split so).
 *
 * <p>The kernels run without device index checks ({@code boundsChecks = false}): {@link Gemm}
 * checks every matrix, bias and residual against its array before it launches them, and each buffer
 * access sits under a test of the product's edges ({@code row < m}, {@code kk < k}). The checks
 * cost the bench's kernel 14 % (40.6 against 35.0 TFLOP/s on the H200), and no launch proof settles
 * them (the fetches' indices are products of two values of an invocation). The CPU backend checks
 * every access.
 */
final class GemmKernels {
  /** Rows and columns of {@code c} per workgroup. */
  static final int BLOCK = Tuning.GEMM_BLOCK;

  /** Rows and columns of {@code c} per invocation. */
  static final int TILE = Tuning.GEMM_TILE;

  static final int SIDE = BLOCK / TILE;
  static final int DEPTH = Tuning.GEMM_DEPTH;

  /**
   * An invocation's columns come in two halves of a tile's width, {@link #HALF} apart in the block:
   * invocation x holds columns {@code 4x … 4x + 3} and {@code 64 + 4x … 64 + 4x + 3}. A warp's
   * 16-byte reads of a staged row of b then fall on adjacent banks, where 8 adjacent columns an
   * invocation put two of every 8 invocations on one bank. Measured on the H100 (forty-fifth
   * session): the whole-block kernel 35.6 → 39.6 TFLOP/s at 4096, 36.0 → 40.4 at 8192, with the
   * same registers (128) and the same sums.
   */
  static final int HALF_TILE = TILE / 2;

  static final int HALF = BLOCK / 2;

  /** The epilogue's passes over a block: each stages a quarter of its rows (16 KB). */
  private static final int PASSES = 4;

  /** Elements of an operand each invocation moves per stage, adjacent in memory: 16 bytes. */
  private static final int QUAD = DEPTH * BLOCK / (SIDE * SIDE);

  /** {@code activation}: none, ReLU, GELU (tanh form), SiLU. */
  static final int NONE = 0;

  static final int RELU = 1;
  static final int GELU = 2;
  static final int SILU = 3;

  /** {@code biasAxis}: a bias per row of {@code c}, or per column. */
  static final int PER_ROW = 1;

  static final int PER_COLUMN = 2;

  private GemmKernels() {}

  /**
   * {@code c = epilogue(alpha · op(a) · op(b) + beta · c)} for {@code op(a)} m x k and {@code
   * op(b)} k x n, all row-major; {@code transA}, {@code transB} not 0 where {@code a} is held k x m
   * or {@code b} n x k. Each matrix starts at its offset and its rows lie {@code ld} elements
   * apart; {@code residual} is laid out as {@code c}. {@code c} is not read where {@code beta} is
   * 0.
   */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // c[offsetC + row * ldc + column]: one invocation per entry of a block
  static void floats(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
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
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK); // [k][row]
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK); // [k][column]
    float[] staged = Gpu.sharedFloats(BLOCK * BLOCK / PASSES); // c's rows of one pass
    float[] sums = new float[TILE * TILE];
    product(a, b, blockA, blockB, sums, m, n, 0, k, offsetA, lda, offsetB, ldb, transA, transB);
    finish(
        c,
        bias,
        residual,
        sums,
        staged,
        m,
        n,
        offsetC,
        ldc,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual);
  }

  /**
   * {@link #floats} where the offsets and the row lengths of {@code a}, {@code b} and {@code c} are
   * multiples of 4 floats (the launcher's contract, written {@code & -4} so that the compiler sees
   * every 16-byte copy aligned and makes no test at run time).
   */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // c[offsetC + row * ldc + column]: one invocation per entry of a block
  static void floatsInQuads(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
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
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] staged = Gpu.sharedFloats(BLOCK * BLOCK / PASSES); // c's rows of one pass
    float[] sums = new float[TILE * TILE];
    product(
        a,
        b,
        blockA,
        blockB,
        sums,
        m,
        n,
        0,
        k,
        offsetA & -4,
        lda & -4,
        offsetB & -4,
        ldb & -4,
        transA,
        transB);
    finish(
        c,
        bias,
        residual,
        sums,
        staged,
        m,
        n,
        offsetC & -4,
        ldc & -4,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual);
  }

  /**
   * {@link #floats} with no epilogue but {@code alpha} and {@code beta} ({@code bias}, {@code
   * residual}, {@code biasAxis}, {@code activation} and {@code withResidual} unused): each
   * invocation stores its tile from its registers ({@link #store}). With {@link #finish}'s pass
   * through workgroup memory in the module, NVIDIA's driver gives the product 149-155 registers an
   * invocation, so that one workgroup of 256 fits a multiprocessor of 64K registers; without it,
   * 128, and two fit (on the H100, a measurement form of this kernel: 25.7 → 33.5 TFLOP/s at 4096,
   * PERFORMANCE.md's forty-first session). The tile's loops must be unrolled for its sums to stay
   * in registers, which the processor does ({@code RegisterUnrolling}): rolled, NVIDIA's driver
   * kept them in memory (59 registers, 1.9 TFLOP/s; the forty-second session). Unrolled: 110
   * registers, 31.2 / 32.0 TFLOP/s at 4096 / 8192 on the H100 (the forty-third session).
   */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // c[offsetC + row * ldc + column]: one invocation per entry of a block
  static void floatsScaled(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
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
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] sums = new float[TILE * TILE];
    product(a, b, blockA, blockB, sums, m, n, 0, k, offsetA, lda, offsetB, ldb, transA, transB);
    store(c, sums, m, n, offsetC, ldc, alpha, beta);
  }

  /** {@link #floatsScaled} on the terms of {@link #floatsInQuads}. */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // c[offsetC + row * ldc + column]: one invocation per entry of a block
  static void floatsInQuadsScaled(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
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
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] sums = new float[TILE * TILE];
    product(
        a,
        b,
        blockA,
        blockB,
        sums,
        m,
        n,
        0,
        k,
        offsetA & -4,
        lda & -4,
        offsetB & -4,
        ldb & -4,
        transA,
        transB);
    store(c, sums, m, n, offsetC & -4, ldc & -4, alpha, beta);
  }

  /**
   * {@link #floatsInQuadsScaled} for a product of whole blocks: m and n multiples of {@link #BLOCK}
   * and k of {@link #DEPTH} (the launcher's contract, as the quads are), so that no fetch and no
   * store tests an edge: each stage's quads are one copy each, each tile row one copy to c. The
   * same sums and the same bits.
   */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // c[offsetC + row * ldc + column]: one invocation per entry of a block
  static void floatsInBlocksScaled(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
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
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] sums = new float[TILE * TILE];
    int wholeK = k & -DEPTH;
    int rowA = lda & -4;
    int rowB = ldb & -4;
    if (transA == 0 && transB == 0) {
      wholeStages(a, b, blockA, blockB, sums, wholeK, offsetA & -4, rowA, offsetB & -4, rowB, 0, 1);
    } else if (transA == 0) {
      wholeStages(a, b, blockA, blockB, sums, wholeK, offsetA & -4, rowA, offsetB & -4, rowB, 0, 0);
    } else if (transB == 0) {
      wholeStages(a, b, blockA, blockB, sums, wholeK, offsetA & -4, rowA, offsetB & -4, rowB, 1, 1);
    } else {
      wholeStages(a, b, blockA, blockB, sums, wholeK, offsetA & -4, rowA, offsetB & -4, rowB, 1, 0);
    }
    int firstRow = Gpu.workgroupId(1) * BLOCK + Gpu.localId(1) * TILE;
    int firstColumn = Gpu.workgroupId(0) * BLOCK + Gpu.localId(0) * HALF_TILE;
    float[] row = new float[HALF_TILE];
    for (int i = 0; i < TILE; i++) {
      for (int h = 0; h < 2; h++) {
        int at = (offsetC & -4) + (firstRow + i) * (ldc & -4) + firstColumn + h * HALF;
        if (beta != 0f) {
          System.arraycopy(c, at, row, 0, HALF_TILE);
        }
        for (int j = 0; j < HALF_TILE; j++) {
          row[j] = scaled(sums[i * TILE + h * HALF_TILE + j], row[j], alpha, beta);
        }
        System.arraycopy(row, 0, c, at, HALF_TILE);
      }
    }
  }

  /**
   * {@link #stages} where every stage lies inside the operands: {@link #wholeFetch}es. A helper of
   * its own rather than a flag through {@link #product}: a constant passed down two calls is not
   * folded, and left its tests in the module.
   */
  private static void wholeStages(
      float[] a,
      float[] b,
      float[] blockA,
      float[] blockB,
      float[] sums,
      int k,
      int offsetA,
      int rowA,
      int offsetB,
      int rowB,
      int alongA,
      int alongB) {
    int self = Gpu.localId(1) * SIDE + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    float[] nextA = new float[QUAD];
    float[] nextB = new float[QUAD];
    wholeFetch(a, offsetA, rowA, alongA, firstRow, 0, self, nextA);
    wholeFetch(b, offsetB, rowB, alongB, firstColumn, 0, self, nextB);
    for (int k0 = 0; k0 < k; k0 += DEPTH) {
      place(nextA, blockA, alongA, self);
      place(nextB, blockB, alongB, self);
      Gpu.barrier();
      if (k0 + DEPTH < k) {
        wholeFetch(a, offsetA, rowA, alongA, firstRow, k0 + DEPTH, self, nextA);
        wholeFetch(b, offsetB, rowB, alongB, firstColumn, k0 + DEPTH, self, nextB);
      }
      multiply(blockA, blockB, sums);
      Gpu.barrier();
    }
  }

  /** {@link #fetch} of a stage inside the operand: one copy, no test. */
  private static void wholeFetch(
      float[] x, int offset, int row, int alongK, int first, int k0, int self, float[] next) {
    if (alongK != 0) {
      int kk = k0 + self / (BLOCK / QUAD);
      System.arraycopy(x, offset + kk * row + first + self % (BLOCK / QUAD) * QUAD, next, 0, QUAD);
    } else {
      int o = first + self / (DEPTH / QUAD);
      System.arraycopy(x, offset + o * row + k0 + self % (DEPTH / QUAD) * QUAD, next, 0, QUAD);
    }
  }

  /**
   * One slice of k of a product of few blocks (split-k): workgroup {@code (x, y, s)} sums {@code
   * op(a) · op(b)} over k from {@code s · depth} (a multiple of {@link #DEPTH}) to the next slice
   * or k, as {@link #floats} sums all of k, and writes the sums to {@code parts}: slice s an m x n
   * matrix at {@code s · m · ldp}, its rows {@code ldp} apart (a multiple of 4). {@link #sumSlices}
   * then adds the slices and runs the epilogue.
   */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // parts[s * m * ldp + row * ldp + column]: one invocation per entry
  static void floatSlices(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
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
    slice(a, b, parts, m, n, k, offsetA, lda, offsetB, ldb, transA, transB, depth, ldp);
  }

  /** {@link #floatSlices} where {@code a}'s and {@code b}'s offsets and rows are in quads. */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // parts[s * m * ldp + row * ldp + column]: one invocation per entry
  static void floatSlicesInQuads(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
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
        offsetA & -4,
        lda & -4,
        offsetB & -4,
        ldb & -4,
        transA,
        transB,
        depth,
        ldp);
  }

  /** The body of {@link #floatSlices} and {@link #floatSlicesInQuads}. */
  private static void slice(
      float[] a,
      float[] b,
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
      int ldp) {
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] sums = new float[TILE * TILE];
    int begin = Gpu.workgroupId(2) * (depth & -DEPTH);
    int end = Math.min(k, begin + (depth & -DEPTH));
    product(
        a, b, blockA, blockB, sums, m, n, begin, end, offsetA, lda, offsetB, ldb, transA, transB);
    store(parts, sums, m, n, Gpu.workgroupId(2) * m * (ldp & -4), ldp & -4, 1f, 0f);
  }

  /**
   * Finishes a split product ({@link #floatSlices}, {@code TileGemmKernels.halvesSlicesInOctets}):
   * entry {@code e} of c (row {@code e / n}, column {@code e % n}) is {@link #entry} of its {@code
   * slices} sums added in slice order, {@code ((s0 + s1) + s2) + …}, slice s an m x n matrix at
   * {@code s · m · ldp} in {@code parts}. The arguments after {@code ldp} are {@link #floats}'.
   */
  @Kernel(workgroup = 256, boundsChecks = false)
  static void sumSlices(
      @Buffer(Access.READ) float[] parts,
      @Buffer(Access.READ_WRITE) float[] c,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.READ) float[] residual,
      int m,
      int n,
      int slices,
      int ldp,
      int offsetC,
      int ldc,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    int e = Gpu.globalId(0);
    if (e < m * n) {
      int row = e / n;
      int column = e % n;
      float sum = parts[row * ldp + column];
      for (int s = 1; s < slices; s++) {
        sum += parts[(s * m + row) * ldp + column];
      }
      int at = offsetC + row * ldc + column;
      c[at] =
          entry(
              sum,
              beta != 0f ? c[at] : 0f,
              withResidual != 0 ? residual[at] : 0f,
              bias,
              row,
              column,
              alpha,
              beta,
              biasAxis,
              activation,
              withResidual);
    }
  }

  /**
   * {@link #floats} with {@code a} and {@code b} float16 bits, each decoded exactly ({@code
   * Float.float16ToFloat}) as it is staged; the sums and the epilogue as {@link #floats}'.
   */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // c[offsetC + row * ldc + column]: one invocation per entry of a block
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
    sixteenBit(
        a,
        b,
        c,
        bias,
        residual,
        m,
        n,
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
        0);
  }

  /** {@link #halves} with bfloat16 bits (a float's upper 16 bits). */
  @Kernel(
      workgroup = {SIDE, SIDE},
      boundsChecks = false)
  @SuppressWarnings(
      "kiln.race.update") // c[offsetC + row * ldc + column]: one invocation per entry of a block
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
    sixteenBit(
        a,
        b,
        c,
        bias,
        residual,
        m,
        n,
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
        1);
  }

  /** The body of {@link #halves} and {@link #bfloats}; {@code bfloat} says which. */
  private static void sixteenBit(
      short[] a,
      short[] b,
      float[] c,
      float[] bias,
      float[] residual,
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
      int withResidual,
      int bfloat) {
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] staged = Gpu.sharedFloats(BLOCK * BLOCK / PASSES); // c's rows of one pass
    float[] sums = new float[TILE * TILE];
    int self = Gpu.localId(1) * SIDE + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    float[] nextA = new float[QUAD];
    float[] nextB = new float[QUAD];
    short[] bits = new short[QUAD];
    for (int k0 = 0; k0 < k; k0 += DEPTH) {
      fetchShorts(a, offsetA, lda, transA, m, firstRow, k0, k, self, bits, nextA, bfloat);
      fetchShorts(b, offsetB, ldb, 1 - transB, n, firstColumn, k0, k, self, bits, nextB, bfloat);
      place(nextA, blockA, transA, self);
      place(nextB, blockB, 1 - transB, self);
      Gpu.barrier();
      multiply(blockA, blockB, sums);
      Gpu.barrier();
    }
    finish(
        c,
        bias,
        residual,
        sums,
        staged,
        m,
        n,
        offsetC,
        ldc,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual);
  }

  /**
   * Sums this invocation's tile of {@code op(a) · op(b)} over k from {@code begin} (a multiple of
   * {@link #DEPTH}) to {@code end} into {@code sums}, staging the factors through {@code blockA}
   * and {@code blockB}: each stage's next one is fetched into private arrays while this one
   * multiplies. {@code a} and {@code b} start at {@code offsetA} and {@code offsetB}, their rows
   * {@code rowA} and {@code rowB} elements apart.
   */
  private static void product(
      float[] a,
      float[] b,
      float[] blockA,
      float[] blockB,
      float[] sums,
      int m,
      int n,
      int begin,
      int end,
      int offsetA,
      int rowA,
      int offsetB,
      int rowB,
      int transA,
      int transB) {
    // b held k x n runs along c's columns as a transposed a runs along its rows; each pair of
    // layouts gets its own copy of the loop with the layouts constants of the module (as the tile
    // GEMM's: a branch the driver cannot fold costs it in every stage)
    if (transA == 0 && transB == 0) {
      stages(a, b, blockA, blockB, sums, m, n, begin, end, offsetA, rowA, offsetB, rowB, 0, 1);
    } else if (transA == 0) {
      stages(a, b, blockA, blockB, sums, m, n, begin, end, offsetA, rowA, offsetB, rowB, 0, 0);
    } else if (transB == 0) {
      stages(a, b, blockA, blockB, sums, m, n, begin, end, offsetA, rowA, offsetB, rowB, 1, 1);
    } else {
      stages(a, b, blockA, blockB, sums, m, n, begin, end, offsetA, rowA, offsetB, rowB, 1, 0);
    }
  }

  /**
   * {@link #product}'s stages for one pair of layouts: {@code alongA} and {@code alongB} (0 or 1,
   * constants at each call) say whether a runs along k in memory (a transposed) and whether b does
   * (b not transposed), as {@link #fetch}'s {@code alongK}.
   */
  private static void stages(
      float[] a,
      float[] b,
      float[] blockA,
      float[] blockB,
      float[] sums,
      int m,
      int n,
      int begin,
      int end,
      int offsetA,
      int rowA,
      int offsetB,
      int rowB,
      int alongA,
      int alongB) {
    int self = Gpu.localId(1) * SIDE + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    float[] nextA = new float[QUAD];
    float[] nextB = new float[QUAD];
    fetch(a, offsetA, rowA, alongA, m, firstRow, begin, end, self, nextA);
    fetch(b, offsetB, rowB, alongB, n, firstColumn, begin, end, self, nextB);
    for (int k0 = begin; k0 < end; k0 += DEPTH) {
      place(nextA, blockA, alongA, self);
      place(nextB, blockB, alongB, self);
      Gpu.barrier();
      if (k0 + DEPTH < end) {
        fetch(a, offsetA, rowA, alongA, m, firstRow, k0 + DEPTH, end, self, nextA);
        fetch(b, offsetB, rowB, alongB, n, firstColumn, k0 + DEPTH, end, self, nextB);
      }
      multiply(blockA, blockB, sums);
      Gpu.barrier();
    }
  }

  /**
   * Reads this invocation's {@link #QUAD} elements of an operand's stage {@code k0} into {@code
   * next}, zeros past its edges. The operand runs along c's rows (or columns), {@code extent} of
   * them from 0, the block's from {@code first}; element {@code (o, kk)} is at {@code offset + o *
   * row + kk}, or at {@code offset + kk * row + o} where {@code alongK} is not 0. Each invocation
   * reads 4 elements adjacent in memory: one copy inside the matrix, element by element at its
   * edges.
   */
  private static void fetch(
      float[] x,
      int offset,
      int row,
      int alongK,
      int extent,
      int first,
      int k0,
      int k,
      int self,
      float[] next) {
    if (alongK != 0) {
      int kk = k0 + self / (BLOCK / QUAD);
      int o = first + self % (BLOCK / QUAD) * QUAD;
      if (kk < k && o + QUAD <= extent) {
        System.arraycopy(x, offset + kk * row + o, next, 0, QUAD);
      } else {
        for (int t = 0; t < QUAD; t++) {
          next[t] = kk < k && o + t < extent ? x[offset + kk * row + o + t] : 0f;
        }
      }
    } else {
      int o = first + self / (DEPTH / QUAD);
      int kk = k0 + self % (DEPTH / QUAD) * QUAD;
      if (o < extent && kk + QUAD <= k) {
        System.arraycopy(x, offset + o * row + kk, next, 0, QUAD);
      } else {
        for (int t = 0; t < QUAD; t++) {
          next[t] = o < extent && kk + t < k ? x[offset + o * row + kk + t] : 0f;
        }
      }
    }
  }

  /** {@link #fetch} of 16-bit floats, decoded into {@code next} through {@code bits}. */
  private static void fetchShorts(
      short[] x,
      int offset,
      int row,
      int alongK,
      int extent,
      int first,
      int k0,
      int k,
      int self,
      short[] bits,
      float[] next,
      int bfloat) {
    if (alongK != 0) {
      int kk = k0 + self / (BLOCK / QUAD);
      int o = first + self % (BLOCK / QUAD) * QUAD;
      for (int t = 0; t < QUAD; t++) {
        bits[t] = kk < k && o + t < extent ? x[offset + kk * row + o + t] : 0;
      }
    } else {
      int o = first + self / (DEPTH / QUAD);
      int kk = k0 + self % (DEPTH / QUAD) * QUAD;
      for (int t = 0; t < QUAD; t++) {
        bits[t] = o < extent && kk + t < k ? x[offset + o * row + kk + t] : 0;
      }
    }
    for (int t = 0; t < QUAD; t++) {
      next[t] = SixteenBits.decode(bits[t], bfloat);
    }
  }

  /** Stores what {@link #fetch} read into the block, {@code [k][o]}. */
  private static void place(float[] next, float[] block, int alongK, int self) {
    if (alongK != 0) {
      System.arraycopy(
          next, 0, block, self / (BLOCK / QUAD) * BLOCK + self % (BLOCK / QUAD) * QUAD, QUAD);
    } else {
      for (int t = 0; t < QUAD; t++) {
        block[(self % (DEPTH / QUAD) * QUAD + t) * BLOCK + self / (DEPTH / QUAD)] = next[t];
      }
    }
  }

  /**
   * Adds the staged blocks' products to this invocation's tile: rows {@code 8 y + i}, columns in
   * two halves ({@link #HALF_TILE}), k in order, each row of a block read by one copy, each column
   * half by one.
   */
  private static void multiply(float[] blockA, float[] blockB, float[] sums) {
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    float[] rowA = new float[TILE];
    float[] columnB = new float[TILE];
    for (int kk = 0; kk < DEPTH; kk++) {
      System.arraycopy(blockA, kk * BLOCK + y * TILE, rowA, 0, TILE);
      System.arraycopy(blockB, kk * BLOCK + x * HALF_TILE, columnB, 0, HALF_TILE);
      System.arraycopy(blockB, kk * BLOCK + HALF + x * HALF_TILE, columnB, HALF_TILE, HALF_TILE);
      for (int i = 0; i < TILE; i++) {
        for (int j = 0; j < TILE; j++) {
          sums[i * TILE + j] = Gpu.fma(rowA[i], columnB[j], sums[i * TILE + j]);
        }
      }
    }
  }

  /**
   * Writes this invocation's tile of c from its registers: {@code α·sum}, {@code + β·c} where β is
   * not 0 ({@link #entry}'s arithmetic), a row of the tile by one copy where the tile lies inside
   * c, entry by entry at c's edges. {@code c} starts at {@code offsetC}, its rows {@code rowC}
   * apart.
   */
  private static void store(
      float[] c, float[] sums, int m, int n, int offsetC, int rowC, float alpha, float beta) {
    int firstRow = Gpu.workgroupId(1) * BLOCK + Gpu.localId(1) * TILE;
    int firstColumn = Gpu.workgroupId(0) * BLOCK + Gpu.localId(0) * HALF_TILE;
    float[] row = new float[HALF_TILE];
    for (int i = 0; i < TILE; i++) {
      for (int h = 0; h < 2; h++) {
        int column = firstColumn + h * HALF;
        int at = offsetC + (firstRow + i) * rowC + column;
        if (firstRow + i < m && column + HALF_TILE <= n) {
          if (beta != 0f) {
            System.arraycopy(c, at, row, 0, HALF_TILE);
          }
          for (int j = 0; j < HALF_TILE; j++) {
            row[j] = scaled(sums[i * TILE + h * HALF_TILE + j], row[j], alpha, beta);
          }
          System.arraycopy(row, 0, c, at, HALF_TILE);
        } else if (firstRow + i < m) {
          for (int j = 0; j < HALF_TILE; j++) {
            if (column + j < n) {
              c[at + j] =
                  scaled(
                      sums[i * TILE + h * HALF_TILE + j], beta != 0f ? c[at + j] : 0f, alpha, beta);
            }
          }
        }
      }
    }
  }

  /** {@code α·sum}, {@code + β·old} where β is not 0: {@link #entry} with no epilogue. */
  private static float scaled(float sum, float old, float alpha, float beta) {
    float v = alpha * sum;
    if (beta != 0f) {
      v += beta * old;
    }
    return v;
  }

  /**
   * Writes the workgroup's block of c through the epilogue: {@code α·sum}, {@code + β·c}, the bias,
   * the activation, the residual. The tiles pass through workgroup memory ({@code staged}) a
   * quarter of the block's rows at a time, so that each invocation reads its tile with constant
   * indices (its sums stay in registers) and the entries of c, read and written, are adjacent
   * across invocations. {@code c} starts at {@code offsetC}, its rows {@code rowC} apart.
   */
  private static void finish(
      float[] c,
      float[] bias,
      float[] residual,
      float[] sums,
      float[] staged,
      int m,
      int n,
      int offsetC,
      int rowC,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    int self = y * SIDE + x;
    int tilesPerPass = SIDE / PASSES;
    for (int pass = 0; pass < PASSES; pass++) {
      if (y / tilesPerPass == pass) {
        for (int i = 0; i < TILE; i++) {
          System.arraycopy(
              sums, i * TILE, staged, (y % tilesPerPass * TILE + i) * BLOCK + x * TILE, TILE);
        }
      }
      Gpu.barrier();
      for (int e = self; e < BLOCK * BLOCK / PASSES; e += SIDE * SIDE) {
        int row = Gpu.workgroupId(1) * BLOCK + pass * (BLOCK / PASSES) + e / BLOCK;
        int inBlock = e % BLOCK;
        int column = Gpu.workgroupId(0) * BLOCK + inBlock;
        if (row < m && column < n) {
          int at = offsetC + row * rowC + column;
          // a staged row holds each invocation's tile row whole: its two halves side by side
          int stagedAt =
              e
                  - inBlock
                  + inBlock % HALF / HALF_TILE * TILE
                  + inBlock / HALF * HALF_TILE
                  + inBlock % HALF_TILE;
          c[at] =
              entry(
                  staged[stagedAt],
                  beta != 0f ? c[at] : 0f,
                  withResidual != 0 ? residual[at] : 0f,
                  bias,
                  row,
                  column,
                  alpha,
                  beta,
                  biasAxis,
                  activation,
                  withResidual);
        }
      }
      Gpu.barrier();
    }
  }

  /**
   * One entry of c: {@code α·sum}, {@code + β·old} where β is not 0, the bias, the activation, and
   * {@code + added} (the residual, 0 where there is none: {@code v + 0f} is {@code v} but for -0,
   * which the residual's absence must keep).
   */
  static float entry(
      float sum,
      float old,
      float added,
      float[] bias,
      int row,
      int column,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    float v = scaled(sum, old, alpha, beta);
    if (biasAxis == PER_ROW) {
      v += bias[row];
    } else if (biasAxis == PER_COLUMN) {
      v += bias[column];
    }
    v = activate(v, activation);
    if (withResidual != 0) {
      v += added;
    }
    return v;
  }

  /** {@code v} through activation {@code kind}. */
  static float activate(float v, int kind) {
    if (kind == RELU) {
      return Math.max(v, 0f);
    }
    if (kind == GELU) {
      float inner = 0.7978846f * (v + 0.044715f * v * v * v); // √(2/π) (v + 0.044715 v³)
      return 0.5f * v * (1f + Gpu.tanh(inner));
    }
    if (kind == SILU) {
      return v / (1f + Gpu.exp(-v));
    }
    return v;
  }
}
