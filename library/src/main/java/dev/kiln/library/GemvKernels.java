package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/**
 * The kernels behind {@link Gemv}: a workgroup of {@link #LANES} x {@link #ROWS} takes {@link
 * #ROWS} rows of a row-major {@code rows x cols} matrix, the {@link #LANES} invocations along x to
 * a row, launched over a grid {@code LANES} wide and {@code rows} high. Lane {@code j} walks its
 * row in chunks ({@link #FLOAT_CHUNK} floats, 32 bytes, or {@link #SHORT_CHUNK} 16-bit elements, 16
 * bytes; read as 16-byte copies where a chunk is whole): chunk {@code t} starts at column {@code (t
 * · LANES + j) · chunk}, and the lane adds the chunk's products to its partial in column order (of
 * 16-bit rows, it reads chunk {@code t + 1} before it adds chunk {@code t}'s, two chunks in flight:
 * 1.07x in a 1B Llama step's GEMVs on the H100, PERFORMANCE.md); the row's 32 partials are then
 * summed as a tree ({@link LaneFolds#sum}). Each product and each sum is rounded to float as Java
 * rounds it, so the order is the results' specification and every device gives the same bits.
 */
final class GemvKernels {
  static final int LANES = LaneFolds.LANES;
  static final int ROWS = LaneFolds.RUNS;
  static final int FLOAT_CHUNK = Tuning.GEMV_FLOAT_CHUNK_BYTES / Float.BYTES;
  static final int SHORT_CHUNK = Tuning.GEMV_SHORT_CHUNK_BYTES / Short.BYTES;

  /**
   * The 16-bit elements of a 16-byte copy: what the {@code ...InSubgroups} forms' rows are
   * multiples of.
   */
  static final int QUAD_SHORTS = 8;

  private GemvKernels() {}

  /** {@code y[r] = dot(a's row r, x)}, plus {@code y[r]} where {@code accumulate} is not 0. */
  @Kernel(workgroup = {LANES, ROWS})
  static void floats(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int offsetA,
      int lda,
      int offsetX,
      int offsetY,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial =
        row < rows ? floatLane(a, x, offsetA + row * lda, offsetX, cols, Gpu.localId(0)) : 0f;
    float total = LaneFolds.sum(partial); // a statement of its own: it declares workgroup memory
    put(y, offsetY, row, rows, accumulate, total);
  }

  /** The same with {@code a}'s elements float16 bits ({@code Float.float16ToFloat}). */
  @Kernel(workgroup = {LANES, ROWS})
  static void halves(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int offsetA,
      int lda,
      int offsetX,
      int offsetY,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial =
        row < rows ? shortLane(a, x, offsetA + row * lda, offsetX, cols, Gpu.localId(0), 0) : 0f;
    float total = LaneFolds.sum(partial);
    put(y, offsetY, row, rows, accumulate, total);
  }

  /**
   * {@link #halves} with each row's lanes folded in the subgroup (the same bits, no workgroup
   * memory and no barriers), where {@link Tuning#foldsInSubgroups} holds.
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void halvesInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int offsetA,
      int lda,
      int offsetX,
      int offsetY,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial =
        row < rows ? shortLane(a, x, offsetA + row * lda, offsetX, cols, Gpu.localId(0), 0) : 0f;
    put(y, offsetY, row, rows, accumulate, LaneFolds.subgroupSum(partial));
  }

  /** The same with {@code a}'s elements bfloat16 bits: a float's upper 16 bits. */
  @Kernel(workgroup = {LANES, ROWS})
  static void bfloats(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int offsetA,
      int lda,
      int offsetX,
      int offsetY,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial =
        row < rows ? shortLane(a, x, offsetA + row * lda, offsetX, cols, Gpu.localId(0), 1) : 0f;
    float total = LaneFolds.sum(partial);
    put(y, offsetY, row, rows, accumulate, total);
  }

  /** {@link #bfloats} with each row's lanes folded in the subgroup ({@link #halvesInSubgroups}). */
  @Kernel(workgroup = {LANES, ROWS})
  static void bfloatsInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      int rows,
      int cols,
      int offsetA,
      int lda,
      int offsetX,
      int offsetY,
      int accumulate) {
    int row = Gpu.globalId(1);
    float partial =
        row < rows ? shortLane(a, x, offsetA + row * lda, offsetX, cols, Gpu.localId(0), 1) : 0f;
    put(y, offsetY, row, rows, accumulate, LaneFolds.subgroupSum(partial));
  }

  /**
   * Row {@code row}'s product {@code total} into {@code y[offsetY + row]}, added to what is there
   * where {@code accumulate} is not 0: by the first lane of a row below {@code rows}.
   */
  private static void put(float[] y, int offsetY, int row, int rows, int accumulate, float total) {
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[offsetY + row] = accumulate != 0 ? y[offsetY + row] + total : total;
    }
  }

  /**
   * A gated linear unit of float16 rows: {@code y[r] = silu(g) · u}, {@code g} the product of row
   * {@code r} of {@code a} and {@code u} that of row {@code rows + r}, each as {@link #halves}
   * computes it; SiLU as {@link GemmKernels#activate} computes it.
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void gatedHalves(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int cols) {
    int row = Gpu.globalId(1);
    float[] gateUp = new float[2];
    if (row < rows) {
      shortLanes(a, x, row * cols, (rows + row) * cols, cols, Gpu.localId(0), 0, gateUp);
    }
    float unit = LaneFolds.gatedSum(gateUp[0], gateUp[1]);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = unit;
    }
  }

  /** {@link #gatedHalves} of bfloat16 rows. */
  @Kernel(workgroup = {LANES, ROWS})
  static void gatedBfloats(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int cols) {
    int row = Gpu.globalId(1);
    float[] gateUp = new float[2];
    if (row < rows) {
      shortLanes(a, x, row * cols, (rows + row) * cols, cols, Gpu.localId(0), 1, gateUp);
    }
    float unit = LaneFolds.gatedSum(gateUp[0], gateUp[1]);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = unit;
    }
  }

  /**
   * A residual's product with the pieces of RMSNorm of its result for the product that follows
   * ({@link #normedProduct}): {@code y[r] += d}, {@code d} the product of row {@code r} of {@code
   * a} (float16 bits, bfloat16 where {@code bfloat} is not 0) with {@code x} as {@link #halves}
   * computes it; then {@code normed[r] = y[r] · weight[r]}, and {@code squares[g]} the sum of
   * {@code y[r]²} over the workgroup's rows {@code r = ROWS · g ...} in order.
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void accumulateForNorm(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.WRITE) float[] normed,
      @Buffer(Access.WRITE) float[] squares,
      int rows,
      int cols,
      int bfloat) {
    int row = Gpu.globalId(1);
    float partial = row < rows ? shortLane(a, x, row * cols, 0, cols, Gpu.localId(0), bfloat) : 0f;
    float total = LaneFolds.sum(partial);
    addForNorm(y, weight, normed, squares, row, rows, total);
  }

  /**
   * The product that follows {@link #accumulateForNorm}, RMSNorm's scale applied to its sums:
   * {@code y[r] = d · s}, {@code d} the product of row {@code r} of {@code a} with {@code normed}
   * as {@link #halves} computes it, {@code s = 1 / Gpu.sqrt(q / cols + eps)}, {@code q} the sum of
   * {@code squares[0 .. parts)}: lane {@code j} adds those at {@code j, j + LANES, ...} in order,
   * the lanes' sums then folded as the products are.
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void normedProduct(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] normed,
      @Buffer(Access.READ) float[] squares,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int cols,
      int parts,
      float eps,
      int bfloat) {
    int row = Gpu.globalId(1);
    int lane = Gpu.localId(0);
    float dot = row < rows ? shortLane(a, normed, row * cols, 0, cols, lane, bfloat) : 0f;
    float scaled = LaneFolds.normedSum(dot, laneSquares(squares, parts, lane), cols, eps);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = scaled;
    }
  }

  /**
   * A gated linear unit after {@link #accumulateForNorm}: {@code y[r] = silu(g · s) · (u · s)},
   * {@code g} and {@code u} the products of rows {@code r} and {@code rows + r} of {@code a} and
   * {@code s} the scale, each as {@link #normedProduct} computes them; SiLU as {@link
   * GemmKernels#activate} computes it.
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void gatedNormedProduct(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] normed,
      @Buffer(Access.READ) float[] squares,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int cols,
      int parts,
      float eps,
      int bfloat) {
    int row = Gpu.globalId(1);
    int lane = Gpu.localId(0);
    float[] gateUp = new float[2];
    if (row < rows) {
      shortLanes(a, normed, row * cols, (rows + row) * cols, cols, lane, bfloat, gateUp);
    }
    float unit =
        LaneFolds.gatedNormedSum(
            gateUp[0], gateUp[1], laneSquares(squares, parts, lane), cols, eps);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = unit;
    }
  }

  /**
   * {@link #accumulateForNorm} of float16 rows with each row's lanes folded in the subgroup ({@link
   * LaneFolds#subgroupSum}: the same bits), for devices whose subgroups are a row's lanes ({@link
   * Tuning#foldsInSubgroups}), and rows a multiple of {@link #QUAD_SHORTS} long, given as {@code
   * octets}, their length over {@link #QUAD_SHORTS}. Written so, a row's start {@code row · cols}
   * is a known multiple of a 16-byte copy (the lanes' copies need no test of their alignment at run
   * time, nor the element-by-element path beside it) and a launch's numbers still prove the reads
   * of {@code a} in bounds, so that they settle with the rest ({@code cols >> 3 << 3}, which did
   * the first, left the reads checked at every launch): the 1B decode's GEMVs 1.318 → 1.268 ms on
   * the H100 (PERFORMANCE.md). The subgroup forms come in one kernel for each element type ({@link
   * #accumulateForNormBfloatsInSubgroups}): the element type a constant of the kernel rather than a
   * launch's scalar leaves one decoding in the lane's loop, where a scalar left both and their
   * registers (the twin of {@code glsl/gemvhjava.comp} in Kiln: 48 registers against 32, a 1B
   * step's GEMVs 5 % slower on the H100).
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void accumulateForNormInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.WRITE) float[] normed,
      @Buffer(Access.WRITE) float[] squares,
      int rows,
      int octets) {
    accumulateInSubgroups(a, x, y, weight, normed, squares, rows, octets, 0);
  }

  /** {@link #accumulateForNormInSubgroups} of bfloat16 rows. */
  @Kernel(workgroup = {LANES, ROWS})
  static void accumulateForNormBfloatsInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.READ_WRITE) float[] y,
      @Buffer(Access.READ) float[] weight,
      @Buffer(Access.WRITE) float[] normed,
      @Buffer(Access.WRITE) float[] squares,
      int rows,
      int octets) {
    accumulateInSubgroups(a, x, y, weight, normed, squares, rows, octets, 1);
  }

  /**
   * The body of {@link #accumulateForNormInSubgroups}, of bfloat16 rows where {@code bfloat} is not
   * 0.
   */
  private static void accumulateInSubgroups(
      short[] a,
      float[] x,
      float[] y,
      float[] weight,
      float[] normed,
      float[] squares,
      int rows,
      int octets,
      int bfloat) {
    int cols = octets * QUAD_SHORTS;
    int row = Gpu.globalId(1);
    float partial = row < rows ? shortLane(a, x, row * cols, 0, cols, Gpu.localId(0), bfloat) : 0f;
    float total = LaneFolds.subgroupSum(partial);
    addForNorm(y, weight, normed, squares, row, rows, total);
  }

  /**
   * The rest of {@link #accumulateForNorm} once row {@code row}'s product {@code total} is folded:
   * {@code y[row] += total}, the weighted value and the workgroup's sum of squares.
   */
  private static void addForNorm(
      float[] y, float[] weight, float[] normed, float[] squares, int row, int rows, float total) {
    float value = row < rows ? y[row] + total : 0f;
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = value;
      normed[row] = value * weight[row];
    }
    float sum = LaneFolds.runsSum(value * value);
    if (Gpu.localId(0) == 0 && Gpu.localId(1) == 0) {
      squares[Gpu.workgroupId(1)] = sum;
    }
  }

  /**
   * {@link #normedProduct} of float16 rows with each row's lanes folded in the subgroup (the same
   * bits); rows a multiple of {@link #QUAD_SHORTS} long, given as {@code octets} ({@link
   * #accumulateForNormInSubgroups}).
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void normedProductInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] normed,
      @Buffer(Access.READ) float[] squares,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets,
      int parts,
      float eps) {
    normedInSubgroups(a, normed, squares, y, rows, octets, parts, eps, 0);
  }

  /** {@link #normedProductInSubgroups} of bfloat16 rows. */
  @Kernel(workgroup = {LANES, ROWS})
  static void normedProductBfloatsInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] normed,
      @Buffer(Access.READ) float[] squares,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets,
      int parts,
      float eps) {
    normedInSubgroups(a, normed, squares, y, rows, octets, parts, eps, 1);
  }

  /**
   * The body of {@link #normedProductInSubgroups}, of bfloat16 rows where {@code bfloat} is not 0.
   */
  private static void normedInSubgroups(
      short[] a,
      float[] normed,
      float[] squares,
      float[] y,
      int rows,
      int octets,
      int parts,
      float eps,
      int bfloat) {
    int cols = octets * QUAD_SHORTS;
    int row = Gpu.globalId(1);
    int lane = Gpu.localId(0);
    float dot = row < rows ? shortLane(a, normed, row * cols, 0, cols, lane, bfloat) : 0f;
    float total = LaneFolds.subgroupSum(dot);
    float laneSum = laneSquares(squares, parts, lane);
    float squareSum = LaneFolds.subgroupSum(laneSum);
    if (Gpu.globalId(0) == 0 && row < rows) {
      y[row] = total * (1f / Gpu.sqrt(squareSum / cols + eps));
    }
  }

  /**
   * {@link #gatedNormedProduct} of float16 rows with each row's lanes folded in the subgroup (the
   * same bits); rows a multiple of {@link #QUAD_SHORTS} long, given as {@code octets} ({@link
   * #accumulateForNormInSubgroups}).
   */
  @Kernel(workgroup = {LANES, ROWS})
  static void gatedNormedProductInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] normed,
      @Buffer(Access.READ) float[] squares,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets,
      int parts,
      float eps) {
    gatedInSubgroups(a, normed, squares, y, rows, octets, parts, eps, 0);
  }

  /** {@link #gatedNormedProductInSubgroups} of bfloat16 rows. */
  @Kernel(workgroup = {LANES, ROWS})
  static void gatedNormedProductBfloatsInSubgroups(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] normed,
      @Buffer(Access.READ) float[] squares,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets,
      int parts,
      float eps) {
    gatedInSubgroups(a, normed, squares, y, rows, octets, parts, eps, 1);
  }

  /**
   * The body of {@link #gatedNormedProductInSubgroups}, of bfloat16 rows where {@code bfloat} is
   * not 0.
   */
  private static void gatedInSubgroups(
      short[] a,
      float[] normed,
      float[] squares,
      float[] y,
      int rows,
      int octets,
      int parts,
      float eps,
      int bfloat) {
    int cols = octets * QUAD_SHORTS;
    int row = Gpu.globalId(1);
    int lane = Gpu.localId(0);
    float[] gateUp = new float[2];
    if (row < rows) {
      shortLanes(a, normed, row * cols, (rows + row) * cols, cols, lane, bfloat, gateUp);
    }
    float gate = LaneFolds.subgroupSum(gateUp[0]);
    float up = LaneFolds.subgroupSum(gateUp[1]);
    float laneSum = laneSquares(squares, parts, lane);
    float squareSum = LaneFolds.subgroupSum(laneSum);
    if (Gpu.globalId(0) == 0 && row < rows) {
      float scale = 1f / Gpu.sqrt(squareSum / cols + eps);
      y[row] = GemmKernels.activate(gate * scale, GemmKernels.SILU) * (up * scale);
    }
  }

  /**
   * Lane {@code lane}'s sum of {@code squares[lane], squares[lane + LANES], ...} below {@code
   * parts}.
   */
  private static float laneSquares(float[] squares, int parts, int lane) {
    float sum = 0f;
    for (int p = lane; p < parts; p += LANES) {
      sum += squares[p];
    }
    return sum;
  }

  /**
   * The first of two products over one input, fused with {@link #pairSecond} into one dispatch
   * (group {@code pair}): {@code y = a·x} for {@code firstRows} rows, each as {@link #floats}
   * computes it; the workgroups past them only meet the others' barriers.
   */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("pair")
  static void pairFirst(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int cols,
      int firstRows) {
    int row = Gpu.globalId(1);
    float partial = row < firstRows ? floatLane(a, x, row * cols, 0, cols, Gpu.localId(0)) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < firstRows) {
      y[row] = total;
    }
  }

  /** The second product of group {@code pair}: {@code z = b·x} for {@code secondRows} rows. */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("pair")
  static void pairSecond(
      @Buffer(Access.READ) float[] b,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] z,
      int cols,
      int secondRows) {
    int row = Gpu.globalId(1);
    float partial = row < secondRows ? floatLane(b, x, row * cols, 0, cols, Gpu.localId(0)) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < secondRows) {
      z[row] = total;
    }
  }

  /** Group {@code halfPair}: {@link #pairFirst} of a float16 matrix, as {@link #halves}. */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("halfPair")
  static void halfPairFirst(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int cols,
      int firstRows) {
    int row = Gpu.globalId(1);
    float partial = row < firstRows ? shortLane(a, x, row * cols, 0, cols, Gpu.localId(0), 0) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < firstRows) {
      y[row] = total;
    }
  }

  /** Group {@code halfPair}: {@link #pairSecond} of a float16 matrix. */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("halfPair")
  static void halfPairSecond(
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] z,
      int cols,
      int secondRows) {
    int row = Gpu.globalId(1);
    float partial = row < secondRows ? shortLane(b, x, row * cols, 0, cols, Gpu.localId(0), 0) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < secondRows) {
      z[row] = total;
    }
  }

  /** Group {@code bfloatPair}: {@link #pairFirst} of a bfloat16 matrix, as {@link #bfloats}. */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("bfloatPair")
  static void bfloatPairFirst(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int cols,
      int firstRows) {
    int row = Gpu.globalId(1);
    float partial = row < firstRows ? shortLane(a, x, row * cols, 0, cols, Gpu.localId(0), 1) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < firstRows) {
      y[row] = total;
    }
  }

  /** Group {@code bfloatPair}: {@link #pairSecond} of a bfloat16 matrix. */
  @Kernel(workgroup = {LANES, ROWS})
  @FuseGroup("bfloatPair")
  static void bfloatPairSecond(
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] z,
      int cols,
      int secondRows) {
    int row = Gpu.globalId(1);
    float partial = row < secondRows ? shortLane(b, x, row * cols, 0, cols, Gpu.localId(0), 1) : 0f;
    float total = LaneFolds.sum(partial);
    if (Gpu.globalId(0) == 0 && row < secondRows) {
      z[row] = total;
    }
  }

  /**
   * Lane {@code lane}'s partial of the row of {@code cols} floats at {@code start}, by the vector
   * at {@code xStart}.
   */
  private static float floatLane(float[] a, float[] x, int start, int xStart, int cols, int lane) {
    float partial = 0f;
    float[] chunk = new float[FLOAT_CHUNK];
    float[] xs = new float[FLOAT_CHUNK];
    for (int c = lane * FLOAT_CHUNK; c < cols; c += LANES * FLOAT_CHUNK) {
      if (c <= cols - FLOAT_CHUNK) {
        System.arraycopy(a, start + c, chunk, 0, FLOAT_CHUNK);
        System.arraycopy(x, xStart + c, xs, 0, FLOAT_CHUNK);
        for (int k = 0; k < FLOAT_CHUNK; k++) {
          partial += chunk[k] * xs[k];
        }
      } else {
        for (int k = c; k < cols; k++) {
          partial += a[start + k] * x[xStart + k];
        }
      }
    }
    return partial;
  }

  /**
   * Lane {@code lane}'s partial of the row of {@code cols} 16-bit elements at {@code start}, by the
   * vector at {@code xStart}: float16 bits, or bfloat16 bits where {@code bfloat} is not 0, each
   * decoded exactly. The row is summed over its whole chunks ({@link #fastLane}); a lane with a
   * partial chunk (a row whose length is no multiple of a chunk) sums its elements again one by
   * one, in the same order ({@link #exactLane}), out of the loop that almost every row takes.
   */
  private static float shortLane(
      short[] a, float[] x, int start, int xStart, int cols, int lane, int bfloat) {
    float[] sum = new float[1];
    boolean summed = fastLane(a, x, start, xStart, cols, lane, bfloat, sum);
    return summed ? sum[0] : exactLane(a, x, start, xStart, cols, lane, bfloat);
  }

  /**
   * Lane {@code lane}'s partial of a row as {@link #shortLane} orders it, over its whole chunks
   * (each element's value by {@code Gpu.float16ToFloat}: the GPU's conversion where the driver
   * keeps float16 subnormals, exact but for a NaN's bits, which the product makes moot), into
   * {@code sum[0]}; whether that is the row's partial: no partial chunk. Each chunk is read before
   * the previous one's products are added (two chunks in flight).
   */
  private static boolean fastLane(
      short[] a, float[] x, int start, int xStart, int cols, int lane, int bfloat, float[] sum) {
    float partial = 0f;
    boolean summed = true;
    short[] chunk = new short[SHORT_CHUNK];
    short[] next = new short[SHORT_CHUNK];
    float[] xs = new float[SHORT_CHUNK];
    int step = LANES * SHORT_CHUNK;
    if (lane * SHORT_CHUNK <= cols - SHORT_CHUNK) {
      System.arraycopy(a, start + lane * SHORT_CHUNK, next, 0, SHORT_CHUNK);
    }
    for (int c = lane * SHORT_CHUNK; c < cols; c += step) {
      if (c <= cols - SHORT_CHUNK) {
        System.arraycopy(next, 0, chunk, 0, SHORT_CHUNK);
        if (c <= cols - SHORT_CHUNK - step) {
          System.arraycopy(a, start + c + step, next, 0, SHORT_CHUNK);
        }
        System.arraycopy(x, xStart + c, xs, 0, SHORT_CHUNK);
        if (bfloat == 0) {
          for (int k = 0; k < SHORT_CHUNK; k++) {
            partial += Gpu.float16ToFloat(chunk[k]) * xs[k];
          }
        } else {
          for (int k = 0; k < SHORT_CHUNK; k++) {
            partial += SixteenBits.bfloat(chunk[k]) * xs[k];
          }
        }
      } else {
        summed = false; // a row's partial chunk: summed by exactLane, out of this loop
      }
    }
    sum[0] = partial;
    return summed;
  }

  /**
   * Lane {@code lane}'s partial as {@link #shortLane} orders it, every element decoded exactly and
   * read alone: the path of the rare lane {@link #fastLane} cannot sum.
   */
  private static float exactLane(
      short[] a, float[] x, int start, int xStart, int cols, int lane, int bfloat) {
    float partial = 0f;
    for (int c = lane * SHORT_CHUNK; c < cols; c += LANES * SHORT_CHUNK) {
      for (int k = c; k < Math.min(c + SHORT_CHUNK, cols); k++) {
        partial += SixteenBits.decode(a[start + k], bfloat) * x[xStart + k];
      }
    }
    return partial;
  }

  /**
   * Lane {@code lane}'s partials of the two rows of {@code cols} 16-bit elements at {@code first}
   * and {@code second} by the vector {@code x}, each exactly as {@link #shortLane} computes it,
   * into {@code partials[0]} and {@code partials[1]}: both summed at once first ({@link
   * #fastLanes}, the vector's chunks read once for both), and a lane with a partial chunk sums each
   * row again element by element.
   */
  private static void shortLanes(
      short[] a,
      float[] x,
      int first,
      int second,
      int cols,
      int lane,
      int bfloat,
      float[] partials) {
    boolean summed = fastLanes(a, x, first, second, cols, lane, bfloat, partials);
    if (!summed) {
      partials[0] = exactLane(a, x, first, 0, cols, lane, bfloat);
      partials[1] = exactLane(a, x, second, 0, cols, lane, bfloat);
    }
  }

  /**
   * {@link #fastLane} of the rows at {@code first} and {@code second} at once, into {@code
   * partials[0]} and {@code partials[1]}; whether those are both rows' partials.
   */
  private static boolean fastLanes(
      short[] a,
      float[] x,
      int first,
      int second,
      int cols,
      int lane,
      int bfloat,
      float[] partials) {
    float one = 0f;
    float two = 0f;
    boolean summed = true;
    short[] ones = new short[SHORT_CHUNK];
    short[] twos = new short[SHORT_CHUNK];
    short[] nextOnes = new short[SHORT_CHUNK];
    short[] nextTwos = new short[SHORT_CHUNK];
    float[] xs = new float[SHORT_CHUNK];
    int step = LANES * SHORT_CHUNK;
    if (lane * SHORT_CHUNK <= cols - SHORT_CHUNK) {
      System.arraycopy(a, first + lane * SHORT_CHUNK, nextOnes, 0, SHORT_CHUNK);
      System.arraycopy(a, second + lane * SHORT_CHUNK, nextTwos, 0, SHORT_CHUNK);
    }
    for (int c = lane * SHORT_CHUNK; c < cols; c += step) {
      if (c <= cols - SHORT_CHUNK) {
        System.arraycopy(nextOnes, 0, ones, 0, SHORT_CHUNK);
        System.arraycopy(nextTwos, 0, twos, 0, SHORT_CHUNK);
        if (c <= cols - SHORT_CHUNK - step) {
          System.arraycopy(a, first + c + step, nextOnes, 0, SHORT_CHUNK);
          System.arraycopy(a, second + c + step, nextTwos, 0, SHORT_CHUNK);
        }
        System.arraycopy(x, c, xs, 0, SHORT_CHUNK);
        if (bfloat == 0) {
          for (int k = 0; k < SHORT_CHUNK; k++) {
            one += Gpu.float16ToFloat(ones[k]) * xs[k];
            two += Gpu.float16ToFloat(twos[k]) * xs[k];
          }
        } else {
          for (int k = 0; k < SHORT_CHUNK; k++) {
            one += SixteenBits.bfloat(ones[k]) * xs[k];
            two += SixteenBits.bfloat(twos[k]) * xs[k];
          }
        }
      } else {
        summed = false;
      }
    }
    partials[0] = one;
    partials[1] = two;
    return summed;
  }
}
