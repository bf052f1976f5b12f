package dev.kiln.library;

/**
 * The library's tuned numbers in one table: the kernels' classes read their shapes from here. Each
 * is valid on every Vulkan device and the CPU backend; those marked measured were chosen from runs
 * on the H200 (PERFORMANCE.md), the others wait for it.
 */
final class Tuning {
  /** Invocations of the row kernels' workgroups ({@link RowKernels}, {@link WorkgroupFolds}). */
  static final int ROW_WORKGROUP = 256;

  /**
   * Columns each invocation of a row kernel holds in registers, so that rows of up to 4096 columns
   * are read once ({@link RowKernels#HELD}).
   */
  static final int ROW_HELD = 16;

  /**
   * Long rows that are few are split into parts of at least this many columns ({@link LongRows}),
   * so that the GPU has about {@link #ROW_SPLIT_WORKGROUPS} workgroups: 64 rows of 128256 make 8
   * parts each (the H200's 132 multiprocessors, 4 workgroups each), one row 62 parts.
   */
  static final int ROW_SPLIT_COLUMNS = 2048;

  static final int ROW_SPLIT_WORKGROUPS = 512;

  /** Lanes of a GEMV row: one row to each run of 32 invocations along x. */
  static final int GEMV_LANES = 32;

  /** Rows of a GEMV workgroup: its y. */
  static final int GEMV_ROWS = 8;

  /**
   * Bytes of a float matrix a GEMV lane reads per step: two 16-byte copies (measured on the H100 in
   * a 1B Llama step, then of 16-bit weights: 64 bytes took its GEMVs from 1.46 to 2.04 ms, 128
   * bytes to 4.50).
   */
  static final int GEMV_FLOAT_CHUNK_BYTES = 32;

  /**
   * Bytes of a 16-bit matrix a GEMV lane reads per step: one 16-byte copy, the next read ahead.
   * Measured on the H100 (session 39) with the elements converted by the GPU: a 1B step's GEMVs
   * 1.245 ms against 1.307 at 32 bytes (656 against 639 tokens/s); 3B 283 and 8B 150 tokens/s
   * against 263 and 135 at 32 bytes with the integer decoding, with which 16 bytes had been 1.2 %
   * slower.
   */
  static final int GEMV_SHORT_CHUNK_BYTES = 16;

  /**
   * Whether the norm-split GEMVs take their forms that fold a row's lanes in the subgroup ({@code
   * ...InSubgroups}: no workgroup memory and no barriers, the same bits): on a Vulkan device whose
   * subgroups have {@link #GEMV_LANES} lanes (a 1B Llama step's GEMVs 1.46 → 1.43 ms on the H100).
   * Not on the CPU backend, though it emulates such subgroups: its generated loops (CPU twins) do
   * not take a kernel whose barriers sit under a condition, and one form with both folds behind a
   * condition ran the llama module's device-model tests in 58 s, against 26 s.
   */
  static boolean foldsInSubgroups(dev.kiln.Device device) {
    return "vulkan".equals(device.backend()) && device.subgroupSize() == GEMV_LANES;
  }

  /**
   * A GEMM workgroup's block of {@code c} (128 x 128), each invocation's tile of it (8 x 8) and the
   * k staged per step (8): the bench's {@code RegisterTiles.prefetched} (measured: 0.80x cuBLAS at
   * 4096 and 8192; the library's form, with edges, transposes and an epilogue, not yet).
   */
  static final int GEMM_BLOCK = 128;

  static final int GEMM_TILE = 8;
  static final int GEMM_DEPTH = 8;

  /**
   * Workgroups a float GEMM's grid should hold: two of 256 invocations fit each of the H100's and
   * H200's 132 multiprocessors. A product of fewer than half as many blocks sums k in slices
   * instead ({@link #gemmSlices}).
   */
  static final int GEMM_FULL_GRID = 256;

  /**
   * The fewest values of k a slice of a split GEMM sums: 16 stages of the float kernel's 8, 4 of
   * the tensor-core kernel's 32 ({@link #gemmSlices}, {@link #tileGemmSlices}).
   */
  static final int GEMM_SLICE_DEPTH = 128;

  /** The most slices a GEMM's k is split into, float or tensor-core. */
  static final int GEMM_MAX_SLICES = 16;

  /**
   * The slices an m x n x k float GEMM splits its k into (split-k): 1 where its 128 x 128 blocks
   * fill half of {@link #GEMM_FULL_GRID} or more; else as many as fill it without a second wave,
   * each at least {@link #GEMM_SLICE_DEPTH} deep. A function of the shape alone, so that every
   * device sums in the same order.
   */
  static int gemmSlices(int m, int n, int k) {
    return slices(
        (long) Math.ceilDiv(m, GEMM_BLOCK) * Math.ceilDiv(n, GEMM_BLOCK), GEMM_FULL_GRID, k);
  }

  /**
   * Workgroups a tensor-core GEMM's grid should hold: one of 256 invocations on each of the H100's
   * and H200's 132 multiprocessors (its 16 accumulator tiles a subgroup take most of the
   * registers).
   */
  static final int TILE_GEMM_FULL_GRID = 132;

  /** {@link #gemmSlices} for the tensor-core GEMM's blocks and grid. */
  static int tileGemmSlices(int m, int n, int k) {
    return slices(
        (long) Math.ceilDiv(m, TILE_GEMM_ROWS) * Math.ceilDiv(n, TILE_GEMM_COLUMNS),
        TILE_GEMM_FULL_GRID,
        k);
  }

  /** The slices of a product of {@code blocks} for a grid of {@code fullGrid} workgroups. */
  private static int slices(long blocks, int fullGrid, int k) {
    if (2 * blocks >= fullGrid) {
      return 1;
    }
    int wanted = (int) (fullGrid / blocks);
    return Math.max(1, Math.min(GEMM_MAX_SLICES, Math.min(wanted, k / GEMM_SLICE_DEPTH)));
  }

  /**
   * A tensor-core GEMM workgroup's block of {@code c} (128 x 256, 64 x 64 per subgroup) and the k
   * staged per step (32): the bench's {@code TensorCores.prefetchedWide} (measured: 268 / 295
   * TFLOP/s at 4096 / 8192 in float16, its GLSL twin's speed; the library's form, with edges,
   * transposes and an epilogue, not yet).
   */
  static final int TILE_GEMM_ROWS = 128;

  static final int TILE_GEMM_COLUMNS = 256;
  static final int TILE_GEMM_DEPTH = 32;

  /** A scan's workgroup and the consecutive elements each invocation holds: tiles of 2048. */
  static final int SCAN_WORKGROUP = 256;

  static final int SCAN_ITEMS = 8;

  /** A radix sort's workgroup, the keys each invocation holds, and the bits of a pass. */
  static final int SORT_WORKGROUP = 256;

  static final int SORT_ITEMS = 8;
  static final int SORT_BITS = 4;

  /** A histogram's workgroup. */
  static final int HISTOGRAM_WORKGROUP = 256;

  /**
   * Workgroups of the histogram's persistent grid: 8 per multiprocessor of the H200's 132, where
   * the sample {@code ByteHistogram} ran fastest of the grids measured.
   */
  static final int HISTOGRAM_WORKGROUPS = 1056;

  /**
   * Copies of the histogram's counters per workgroup, each shared by a quarter of its subgroups.
   */
  static final int HISTOGRAM_COPIES = 4;

  /**
   * Bins up to which a histogram's counters have a constant size, so that their indices need no
   * check as the device runs (256: bytes, the common case, in 4 KiB with the copies).
   */
  static final int HISTOGRAM_SMALL_BINS = 256;

  /**
   * Int counters a workgroup keeps in its memory: 16 KiB, the least Vulkan guarantees. Past that, a
   * histogram counts into the buffer itself.
   */
  static final int WORKGROUP_COUNTERS = 4096;

  private Tuning() {}
}
