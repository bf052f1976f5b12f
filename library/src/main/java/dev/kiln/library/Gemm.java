package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.ShortArray;
import dev.kiln.matrix.MatrixElement;
import java.util.function.ToIntFunction;

/**
 * Matrix products {@code C = epilogue(α·op(A)·op(B) + β·C)} of float, float16 and bfloat16 matrices
 * (a float {@code C}; 16-bit factors decoded exactly, then multiplied and summed as floats) of any
 * shape: {@code op(A)} is m x k and {@code op(B)} k x n, every matrix row-major, {@code op(X)}
 * being {@code X} or, where its flag says so, its transpose ({@code A} then held k x m; a
 * column-major matrix is the transpose of a row-major one). Where {@code β} is 0, {@code C} is not
 * read (NaNs in it do not reach the result), as in BLAS. The batch forms that take offsets and row
 * distances ({@code lda}, {@code ldb}, {@code ldc}) work on parts of arrays, as BLAS does.
 *
 * <p>Kernels: floats by a register-tiled product (128 x 128 a workgroup, 8 x 8 an invocation, the
 * next 8 of k fetched while the current 8 multiply); float16 and bfloat16 factors on tensor cores
 * where {@code Device.multipliesTiles} (128 x 256 a workgroup, 64 x 64 a subgroup), by the register
 * kernel elsewhere. On tensor cores each step of 16 products is summed in the device's order and
 * precision (docs/KERNELS.md bounds it), so results there are not the fused loop's bits below.
 *
 * <p>Order and precision: each entry's sum is {@code Gpu.fma} over k in order from 0, which is
 * Java's {@code Math.fma} loop on the CPU backend and on devices that fuse (discrete GPUs; lavapipe
 * rounds the product first, within one ulp a step). A product of few blocks and a deep k (k of 256
 * or more, and fewer than 128 blocks of 128 x 128, or on tensor cores fewer than 66 of 128 x 256
 * with the factors' offsets and rows multiples of 8: {@code Tuning.gemmSlices}, {@code
 * tileGemmSlices}, functions of the shape alone) sums k in slices instead, each such a loop over
 * its part of k, and adds the slices' sums in order; every device then sums in that order. Then, in
 * Java's float arithmetic: {@code v = α · sum}; {@code v += β · C[i][j]} where {@code β} is not 0;
 * {@code v += bias[i]} (or {@code bias[j]}); the activation; {@code v += residual[i][j]}. GELU is
 * the tanh form ({@code torch}'s {@code approximate="tanh"}) and SiLU {@code v / (1 + exp(-v))},
 * with the device's {@code tanh} and {@code exp}: a few ulps, not Java's bits.
 *
 * <pre>{@code
 * // h = GELU(x · Wᵀ + b), x of 64 rows of 1024, W of 4096 rows of 1024
 * Gemm.floats(device, 64, 4096, 1024, 1f, x, false, w, true, 0f, h,
 *     Gemm.Epilogue.forArrays().biasPerColumn(b).gelu());
 * }</pre>
 */
public final class Gemm {
  private Gemm() {}

  /**
   * What follows the product: a bias, an activation and a residual, each optional; immutable, each
   * method returning a new one.
   *
   * @param <A> the arrays' type: {@code float[]} for Java arrays, {@link FloatArray} on a device
   */
  public static final class Epilogue<A> {
    private final A bias;
    private final int biasAxis;
    private final int activation;
    private final A residual;

    /** An array's length. */
    private final ToIntFunction<A> length;

    private Epilogue(A bias, int biasAxis, int activation, A residual, ToIntFunction<A> length) {
      this.bias = bias;
      this.biasAxis = biasAxis;
      this.activation = activation;
      this.residual = residual;
      this.length = length;
    }

    /** Whether it is none: the product's entries only scaled ({@code α}, {@code β}). */
    boolean none() {
      return biasAxis == 0 && activation == GemmKernels.NONE && residual == null;
    }

    /** Checks the arrays against an m x n product. */
    void check(int m, int n, Strides strides) {
      if (biasAxis != 0) {
        Shapes.vector("bias", length.applyAsInt(bias), biasAxis == GemmKernels.PER_ROW ? m : n);
      }
      if (residual != null) {
        Shapes.strided(
            "residual", length.applyAsInt(residual), strides.offsetC(), m, n, strides.ldc());
      }
    }

    /**
     * No epilogue, for Java arrays.
     *
     * @return it
     */
    public static Epilogue<float[]> forArrays() {
      return new Epilogue<>(null, 0, GemmKernels.NONE, null, array -> array.length);
    }

    /**
     * No epilogue, for device arrays.
     *
     * @return it
     */
    public static Epilogue<FloatArray> forDevice() {
      return new Epilogue<>(null, 0, GemmKernels.NONE, null, FloatArray::length);
    }

    /**
     * Adds {@code bias[i]} to row {@code i}.
     *
     * @param bias at least m elements
     * @return the epilogue with it
     */
    public Epilogue<A> biasPerRow(A bias) {
      return new Epilogue<>(bias, GemmKernels.PER_ROW, activation, residual, length);
    }

    /**
     * Adds {@code bias[j]} to column {@code j}: a linear layer's bias.
     *
     * @param bias at least n elements
     * @return the epilogue with it
     */
    public Epilogue<A> biasPerColumn(A bias) {
      return new Epilogue<>(bias, GemmKernels.PER_COLUMN, activation, residual, length);
    }

    /**
     * {@code Math.max(v, 0f)} after the bias.
     *
     * @return the epilogue with it
     */
    public Epilogue<A> relu() {
      return new Epilogue<>(bias, biasAxis, GemmKernels.RELU, residual, length);
    }

    /**
     * GELU, tanh form, after the bias.
     *
     * @return the epilogue with it
     */
    public Epilogue<A> gelu() {
      return new Epilogue<>(bias, biasAxis, GemmKernels.GELU, residual, length);
    }

    /**
     * SiLU after the bias.
     *
     * @return the epilogue with it
     */
    public Epilogue<A> silu() {
      return new Epilogue<>(bias, biasAxis, GemmKernels.SILU, residual, length);
    }

    /**
     * Adds {@code residual[i * n + j]} last.
     *
     * @param residual an m x n row-major matrix
     * @return the epilogue with it
     */
    public Epilogue<A> residual(A residual) {
      return new Epilogue<>(bias, biasAxis, activation, residual, length);
    }
  }

  /**
   * {@code c = α·op(a)·op(b) + β·c}.
   *
   * @param device where it runs
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n
   */
  public static void floats(
      Device device,
      int m,
      int n,
      int k,
      float alpha,
      float[] a,
      boolean transA,
      float[] b,
      boolean transB,
      float beta,
      float[] c) {
    floats(device, m, n, k, alpha, a, transA, b, transB, beta, c, Epilogue.forArrays());
  }

  /**
   * {@code c = epilogue(α·op(a)·op(b) + β·c)}.
   *
   * @param device where it runs
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n
   * @param epilogue what follows the product
   */
  public static void floats(
      Device device,
      int m,
      int n,
      int k,
      float alpha,
      float[] a,
      boolean transA,
      float[] b,
      boolean transB,
      float beta,
      float[] c,
      Epilogue<float[]> epilogue) {
    Strides strides = Strides.natural(m, n, k, transA, transB);
    strides.check(m, n, k, transA, transB, a.length, b.length, c.length);
    epilogue.check(m, n, strides);
    if (m > 0 && n > 0 && Tuning.gemmSlices(m, n, k) > 1) {
      try (FloatArray onA = device.upload(a);
          FloatArray onB = device.upload(b)) {
        throughDevice(
            device,
            c,
            epilogue,
            (batch, onC, onEpilogue) ->
                floats(batch, m, n, k, alpha, onA, transA, onB, transB, beta, onC, onEpilogue));
      }
    } else if (m > 0 && n > 0) {
      float[] none = new float[1];
      Launch<Device, float[], float[]> kernel =
          strides.inQuads()
              ? (epilogue.none()
                  ? (wholeBlocks(m, n, k)
                      ? GemmKernelsKernels::floatsInBlocksScaled
                      : GemmKernelsKernels::floatsInQuadsScaled)
                  : GemmKernelsKernels::floatsInQuads)
              : (epilogue.none() ? GemmKernelsKernels::floatsScaled : GemmKernelsKernels::floats);
      run(
          kernel,
          device,
          grid(m, n),
          a,
          b,
          c,
          none,
          m,
          n,
          k,
          strides,
          transA,
          transB,
          alpha,
          beta,
          epilogue);
    }
  }

  /**
   * {@link #floats(Device, int, int, int, float, float[], boolean, float[], boolean, float,
   * float[], Epilogue)} on device arrays.
   *
   * @param device where it runs and the arrays are
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n, another array than the others
   * @param epilogue what follows the product
   */
  public static void floats(
      Device device,
      int m,
      int n,
      int k,
      float alpha,
      FloatArray a,
      boolean transA,
      FloatArray b,
      boolean transB,
      float beta,
      FloatArray c,
      Epilogue<FloatArray> epilogue) {
    try (Batch batch = device.batch()) {
      floats(batch, m, n, k, alpha, a, transA, b, transB, beta, c, epilogue);
    }
  }

  /**
   * {@link #floats(Device, int, int, int, float, FloatArray, boolean, FloatArray, boolean, float,
   * FloatArray, Epilogue)} in a batch.
   *
   * @param batch the batch that records it
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n, another array than the others
   * @param epilogue what follows the product
   */
  public static void floats(
      Batch batch,
      int m,
      int n,
      int k,
      float alpha,
      FloatArray a,
      boolean transA,
      FloatArray b,
      boolean transB,
      float beta,
      FloatArray c,
      Epilogue<FloatArray> epilogue) {
    Strides strides = Strides.natural(m, n, k, transA, transB);
    floats(
        batch,
        m,
        n,
        k,
        alpha,
        a,
        strides.offsetA(),
        strides.lda(),
        transA,
        b,
        strides.offsetB(),
        strides.ldb(),
        transB,
        beta,
        c,
        strides.offsetC(),
        strides.ldc(),
        epilogue);
  }

  /**
   * {@link #floats(Batch, int, int, int, float, FloatArray, boolean, FloatArray, boolean, float,
   * FloatArray, Epilogue)} on parts of arrays, as BLAS takes them: each matrix starts at its offset
   * and its rows (the rows it is held in: {@code a}'s are m long where {@code transA}) lie {@code
   * ld} elements apart, at least a row's length; {@code residual} is laid out as {@code c}. One
   * head of attention in a cache of {@code heads} heads of {@code d}, say: offset {@code head · d},
   * {@code ld = heads · d}.
   *
   * @param batch the batch that records it
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a holds m x k, or k x m where {@code transA}
   * @param offsetA where {@code a}'s first row starts
   * @param lda how far apart {@code a}'s rows start
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b holds k x n, or n x k where {@code transB}
   * @param offsetB where {@code b}'s first row starts
   * @param ldb how far apart {@code b}'s rows start
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c holds m x n, another array than the others
   * @param offsetC where {@code c}'s first row starts
   * @param ldc how far apart {@code c}'s rows start
   * @param epilogue what follows the product
   */
  public static void floats(
      Batch batch,
      int m,
      int n,
      int k,
      float alpha,
      FloatArray a,
      int offsetA,
      int lda,
      boolean transA,
      FloatArray b,
      int offsetB,
      int ldb,
      boolean transB,
      float beta,
      FloatArray c,
      int offsetC,
      int ldc,
      Epilogue<FloatArray> epilogue) {
    Strides strides = new Strides(offsetA, lda, offsetB, ldb, offsetC, ldc);
    strides.check(m, n, k, transA, transB, a.length(), b.length(), c.length());
    epilogue.check(m, n, strides);
    int slices = m > 0 && n > 0 ? Tuning.gemmSlices(m, n, k) : 1;
    if (slices > 1) {
      inSlices(
          batch,
          strides.factorsInQuads()
              ? GemmKernelsKernels::floatSlicesInQuads
              : GemmKernelsKernels::floatSlices,
          grid(m, n),
          GemmKernels.DEPTH,
          slices,
          m,
          n,
          k,
          alpha,
          a,
          transA,
          b,
          transB,
          beta,
          c,
          strides,
          epilogue);
    } else if (m > 0 && n > 0) {
      Launch<Batch, FloatArray, FloatArray> kernel =
          strides.inQuads()
              ? (epilogue.none()
                  ? (wholeBlocks(m, n, k)
                      ? GemmKernelsKernels::floatsInBlocksScaled
                      : GemmKernelsKernels::floatsInQuadsScaled)
                  : GemmKernelsKernels::floatsInQuads)
              : (epilogue.none() ? GemmKernelsKernels::floatsScaled : GemmKernelsKernels::floats);
      run(
          kernel,
          batch,
          grid(m, n),
          a,
          b,
          c,
          a,
          m,
          n,
          k,
          strides,
          transA,
          transB,
          alpha,
          beta,
          epilogue);
    }
  }

  /**
   * Runs {@code product} in a batch on device copies of {@code c} and the epilogue's arrays (a
   * product of several launches on Java arrays: its arrays cross to the device once), then copies
   * {@code c} back.
   */
  private static void throughDevice(
      Device device, float[] c, Epilogue<float[]> epilogue, OnDevice product) {
    try (FloatArray onC = device.upload(c);
        FloatArray onBias = device.upload(epilogue.bias == null ? new float[1] : epilogue.bias);
        FloatArray onResidual =
            device.upload(epilogue.residual == null ? new float[1] : epilogue.residual)) {
      Epilogue<FloatArray> onDevice =
          new Epilogue<>(
              epilogue.bias == null ? null : onBias,
              epilogue.biasAxis,
              epilogue.activation,
              epilogue.residual == null ? null : onResidual,
              FloatArray::length);
      try (Batch batch = device.batch()) {
        product.run(batch, onC, onDevice);
      }
      onC.download(c);
    }
  }

  /** A product recorded in a batch on device arrays: {@link #throughDevice}'s. */
  @FunctionalInterface
  private interface OnDevice {
    void run(Batch batch, FloatArray c, Epilogue<FloatArray> epilogue);
  }

  /**
   * A product of few blocks with its k split in {@code slices} (split-k): {@code kernel} writes
   * each slice's sums over a grid of {@code blocks}' workgroups, {@code used} deep, into the
   * batch's scratch array (one for all the batch's split products, lent by the device from one
   * batch to the next); then {@code GemmKernels.sumSlices} adds them up in slice order and runs the
   * epilogue. {@code stage} is the kernel's k per stage, which each slice's depth is a multiple of.
   */
  private static <S> void inSlices(
      Batch batch,
      SliceLaunch<S> kernel,
      Grid blocks,
      int stage,
      int slices,
      int m,
      int n,
      int k,
      float alpha,
      S a,
      boolean transA,
      S b,
      boolean transB,
      float beta,
      FloatArray c,
      Strides strides,
      Epilogue<FloatArray> epilogue) {
    int depth = sliceDepth(k, slices, stage);
    int used = Math.ceilDiv(k, depth);
    int ldp = Math.ceilDiv(n, 4) * 4;
    FloatArray parts = batch.scratchFloats(used * m * ldp);
    kernel.run(
        batch,
        Grid.of(blocks.x(), blocks.y(), used),
        a,
        b,
        parts,
        m,
        n,
        k,
        strides.offsetA(),
        strides.lda(),
        strides.offsetB(),
        strides.ldb(),
        transA ? 1 : 0,
        transB ? 1 : 0,
        depth,
        ldp);
    FloatArray none = batch.unusedFloats();
    GemmKernelsKernels.sumSlices(
        batch,
        m * n,
        parts,
        c,
        epilogue.bias == null ? none : epilogue.bias,
        epilogue.residual == null ? none : epilogue.residual,
        m,
        n,
        used,
        ldp,
        strides.offsetC(),
        strides.ldc(),
        alpha,
        beta,
        epilogue.biasAxis,
        epilogue.activation,
        epilogue.residual == null ? 0 : 1);
  }

  /** A launch of {@code GemmKernels.floatSlices} or a kernel of its parameters. */
  @FunctionalInterface
  private interface SliceLaunch<S> {
    void run(
        Batch batch,
        Grid grid,
        S a,
        S b,
        FloatArray parts,
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
        int ldp);
  }

  /**
   * Whether an m x n x k float product is of whole blocks, {@code
   * GemmKernels.floatsInBlocksScaled}' shapes: m and n multiples of 128, k of 8.
   */
  private static boolean wholeBlocks(int m, int n, int k) {
    return m % GemmKernels.BLOCK == 0 && n % GemmKernels.BLOCK == 0 && k % GemmKernels.DEPTH == 0;
  }

  /**
   * The k each slice of a product split in {@code slices} sums (the last may sum less): a multiple
   * of {@code stage}, the kernel's k per stage, so that every slice starts one.
   */
  static int sliceDepth(int k, int slices, int stage) {
    return Math.ceilDiv(Math.ceilDiv(k, slices), stage) * stage;
  }

  /**
   * {@link #floats(Device, int, int, int, float, float[], boolean, float[], boolean, float,
   * float[], Epilogue)} with {@code a} and {@code b} float16 bits ({@code Float.float16ToFloat}).
   *
   * @param device where it runs
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n
   * @param epilogue what follows the product
   */
  public static void halves(
      Device device,
      int m,
      int n,
      int k,
      float alpha,
      short[] a,
      boolean transA,
      short[] b,
      boolean transB,
      float beta,
      float[] c,
      Epilogue<float[]> epilogue) {
    shorts(
        device,
        m,
        n,
        k,
        alpha,
        a,
        transA,
        b,
        transB,
        beta,
        c,
        epilogue,
        false,
        onTiles(device, false));
  }

  /**
   * {@link #halves(Device, int, int, int, float, short[], boolean, short[], boolean, float,
   * float[], Epilogue)} with {@code a} and {@code b} bfloat16 bits (a float's upper 16 bits).
   *
   * @param device where it runs
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n
   * @param epilogue what follows the product
   */
  public static void bfloats(
      Device device,
      int m,
      int n,
      int k,
      float alpha,
      short[] a,
      boolean transA,
      short[] b,
      boolean transB,
      float beta,
      float[] c,
      Epilogue<float[]> epilogue) {
    shorts(
        device,
        m,
        n,
        k,
        alpha,
        a,
        transA,
        b,
        transB,
        beta,
        c,
        epilogue,
        true,
        onTiles(device, true));
  }

  /**
   * {@link #halves(Device, int, int, int, float, short[], boolean, short[], boolean, float,
   * float[], Epilogue)} on device arrays; {@code bfloat} says which 16-bit format.
   *
   * @param device where it runs and the arrays are
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n
   * @param epilogue what follows the product
   * @param bfloat whether the factors are bfloat16 (else float16)
   */
  public static void shorts(
      Device device,
      int m,
      int n,
      int k,
      float alpha,
      ShortArray a,
      boolean transA,
      ShortArray b,
      boolean transB,
      float beta,
      FloatArray c,
      Epilogue<FloatArray> epilogue,
      boolean bfloat) {
    try (Batch batch = device.batch()) {
      shorts(batch, m, n, k, alpha, a, transA, b, transB, beta, c, epilogue, bfloat);
    }
  }

  /**
   * {@link #shorts(Device, int, int, int, float, ShortArray, boolean, ShortArray, boolean, float,
   * FloatArray, Epilogue, boolean)} in a batch.
   *
   * @param batch the batch that records it
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, or k x m where {@code transA}
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b k x n, or n x k where {@code transB}
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n
   * @param epilogue what follows the product
   * @param bfloat whether the factors are bfloat16 (else float16)
   */
  public static void shorts(
      Batch batch,
      int m,
      int n,
      int k,
      float alpha,
      ShortArray a,
      boolean transA,
      ShortArray b,
      boolean transB,
      float beta,
      FloatArray c,
      Epilogue<FloatArray> epilogue,
      boolean bfloat) {
    Strides strides = Strides.natural(m, n, k, transA, transB);
    shorts(
        batch,
        m,
        n,
        k,
        alpha,
        a,
        strides.offsetA(),
        strides.lda(),
        transA,
        b,
        strides.offsetB(),
        strides.ldb(),
        transB,
        beta,
        c,
        strides.offsetC(),
        strides.ldc(),
        epilogue,
        bfloat);
  }

  /**
   * {@link #shorts(Batch, int, int, int, float, ShortArray, boolean, ShortArray, boolean, float,
   * FloatArray, Epilogue, boolean)} on parts of arrays, as {@link #floats(Batch, int, int, int,
   * float, FloatArray, int, int, boolean, FloatArray, int, int, boolean, float, FloatArray, int,
   * int, Epilogue)} takes them.
   *
   * @param batch the batch that records it
   * @param m the rows of {@code op(a)} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code op(a)}, the rows of {@code op(b)}
   * @param alpha α
   * @param a holds m x k, or k x m where {@code transA}
   * @param offsetA where {@code a}'s first row starts
   * @param lda how far apart {@code a}'s rows start
   * @param transA whether {@code op(a)} is {@code a}'s transpose
   * @param b holds k x n, or n x k where {@code transB}
   * @param offsetB where {@code b}'s first row starts
   * @param ldb how far apart {@code b}'s rows start
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c holds m x n, another array than the others
   * @param offsetC where {@code c}'s first row starts
   * @param ldc how far apart {@code c}'s rows start
   * @param epilogue what follows the product
   * @param bfloat whether the factors are bfloat16 (else float16)
   */
  public static void shorts(
      Batch batch,
      int m,
      int n,
      int k,
      float alpha,
      ShortArray a,
      int offsetA,
      int lda,
      boolean transA,
      ShortArray b,
      int offsetB,
      int ldb,
      boolean transB,
      float beta,
      FloatArray c,
      int offsetC,
      int ldc,
      Epilogue<FloatArray> epilogue,
      boolean bfloat) {
    shorts(
        batch,
        m,
        n,
        k,
        alpha,
        a,
        offsetA,
        lda,
        transA,
        b,
        offsetB,
        ldb,
        transB,
        beta,
        c,
        offsetC,
        ldc,
        epilogue,
        bfloat,
        onTiles(c.device(), bfloat));
  }

  /**
   * The strided 16-bit product in a batch, on tensor cores where {@code tiles} (the device
   * multiplies tiles in hardware, or a test runs that kernel on the CPU backend).
   */
  static void shorts(
      Batch batch,
      int m,
      int n,
      int k,
      float alpha,
      ShortArray a,
      int offsetA,
      int lda,
      boolean transA,
      ShortArray b,
      int offsetB,
      int ldb,
      boolean transB,
      float beta,
      FloatArray c,
      int offsetC,
      int ldc,
      Epilogue<FloatArray> epilogue,
      boolean bfloat,
      boolean tiles) {
    Strides strides = new Strides(offsetA, lda, offsetB, ldb, offsetC, ldc);
    strides.check(m, n, k, transA, transB, a.length(), b.length(), c.length());
    epilogue.check(m, n, strides);
    int slices = tileSlices(m, n, k, strides, tiles);
    if (slices > 1) {
      inSlices(
          batch,
          bfloat
              ? TileGemmKernelsKernels::bfloatsSlicesInOctets
              : TileGemmKernelsKernels::halvesSlicesInOctets,
          tileGrid(m, n),
          Tuning.TILE_GEMM_DEPTH,
          slices,
          m,
          n,
          k,
          alpha,
          a,
          transA,
          b,
          transB,
          beta,
          c,
          strides,
          epilogue);
    } else if (m > 0 && n > 0) {
      // an absent bias or residual: the batch's array for that, which the kernel does not read (one
      // allocated per launch took half the host's time of recording a Llama prefill's products)
      FloatArray none =
          epilogue.bias == null || epilogue.residual == null ? batch.unusedFloats() : null;
      Launch<Batch, ShortArray, FloatArray> kernel =
          tiles
              ? (strides.inOctets()
                  ? (bfloat
                      ? TileGemmKernelsKernels::bfloatsInOctets
                      : TileGemmKernelsKernels::halvesInOctets)
                  : (bfloat ? TileGemmKernelsKernels::bfloats : TileGemmKernelsKernels::halves))
              : (bfloat ? GemmKernelsKernels::bfloats : GemmKernelsKernels::halves);
      run(
          kernel,
          batch,
          tiles ? tileGrid(m, n) : grid(m, n),
          a,
          b,
          c,
          none,
          m,
          n,
          k,
          strides,
          transA,
          transB,
          alpha,
          beta,
          epilogue);
    }
  }

  /**
   * The 16-bit product on Java arrays, on tensor cores where {@code tiles} (the device multiplies
   * tiles in hardware, or a test runs that kernel on the CPU backend).
   */
  static void shorts(
      Device device,
      int m,
      int n,
      int k,
      float alpha,
      short[] a,
      boolean transA,
      short[] b,
      boolean transB,
      float beta,
      float[] c,
      Epilogue<float[]> epilogue,
      boolean bfloat,
      boolean tiles) {
    Strides strides = Strides.natural(m, n, k, transA, transB);
    strides.check(m, n, k, transA, transB, a.length, b.length, c.length);
    epilogue.check(m, n, strides);
    if (tileSlices(m, n, k, strides, tiles) > 1) {
      try (ShortArray onA = device.upload(a);
          ShortArray onB = device.upload(b)) {
        throughDevice(
            device,
            c,
            epilogue,
            (batch, onC, onEpilogue) ->
                shorts(
                    batch,
                    m,
                    n,
                    k,
                    alpha,
                    onA,
                    0,
                    strides.lda(),
                    transA,
                    onB,
                    0,
                    strides.ldb(),
                    transB,
                    beta,
                    onC,
                    0,
                    n,
                    onEpilogue,
                    bfloat,
                    tiles));
      }
    } else if (m > 0 && n > 0) {
      float[] none = new float[1];
      Launch<Device, short[], float[]> kernel =
          tiles
              ? (strides.inOctets()
                  ? (bfloat
                      ? TileGemmKernelsKernels::bfloatsInOctets
                      : TileGemmKernelsKernels::halvesInOctets)
                  : (bfloat ? TileGemmKernelsKernels::bfloats : TileGemmKernelsKernels::halves))
              : (bfloat ? GemmKernelsKernels::bfloats : GemmKernelsKernels::halves);
      run(
          kernel,
          device,
          tiles ? tileGrid(m, n) : grid(m, n),
          a,
          b,
          c,
          none,
          m,
          n,
          k,
          strides,
          transA,
          transB,
          alpha,
          beta,
          epilogue);
    }
  }

  /**
   * The slices of a 16-bit product's k: on tensor cores with the factors in octets, {@code
   * Tuning.tileGemmSlices}; else 1.
   */
  private static int tileSlices(int m, int n, int k, Strides strides, boolean tiles) {
    return tiles && m > 0 && n > 0 && strides.inOctets() ? Tuning.tileGemmSlices(m, n, k) : 1;
  }

  /**
   * Whether the 16-bit product runs on tensor cores here: the device multiplies the format's tiles
   * in hardware, with subgroups of 32 ({@link TileGemmKernels}' 8 subgroups a workgroup).
   */
  private static boolean onTiles(Device device, boolean bfloat) {
    return device.multipliesTiles(bfloat ? MatrixElement.BFLOAT16 : MatrixElement.FLOAT16)
        && device.subgroupSize() == 32;
  }

  /** Whole workgroups of 16 x 16, one per 128 x 256 block of {@code c}. */
  private static Grid tileGrid(int m, int n) {
    return Grid.of(
        Math.ceilDiv(n, TileGemmKernels.COLUMNS) * 16, Math.ceilDiv(m, TileGemmKernels.ROWS) * 16);
  }

  /**
   * Runs {@code kernel} with the product's scalars: the strides, the flags and the epilogue's
   * settings; {@code none} stands for an absent bias or residual (the kernel does not read it).
   */
  private static <T, S, F> void run(
      Launch<T, S, F> kernel,
      T target,
      Grid grid,
      S a,
      S b,
      F c,
      F none,
      int m,
      int n,
      int k,
      Strides strides,
      boolean transA,
      boolean transB,
      float alpha,
      float beta,
      Epilogue<F> epilogue) {
    kernel.run(
        target,
        grid,
        a,
        b,
        c,
        epilogue.bias == null ? none : epilogue.bias,
        epilogue.residual == null ? none : epilogue.residual,
        m,
        n,
        k,
        strides.offsetA(),
        strides.lda(),
        strides.offsetB(),
        strides.ldb(),
        strides.offsetC(),
        strides.ldc(),
        transA ? 1 : 0,
        transB ? 1 : 0,
        alpha,
        beta,
        epilogue.biasAxis,
        epilogue.activation,
        epilogue.residual == null ? 0 : 1);
  }

  /**
   * A product's launcher: one of {@code GemmKernelsKernels}' or {@code TileGemmKernelsKernels}', on
   * a device or in a batch.
   *
   * @param <T> where it runs
   * @param <S> the factors' arrays
   * @param <F> the float arrays
   */
  @FunctionalInterface
  private interface Launch<T, S, F> {
    void run(
        T target,
        Grid grid,
        S a,
        S b,
        F c,
        F bias,
        F residual,
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
        int withResidual);
  }

  /** Whole workgroups of 16 x 16, one per 128 x 128 block of {@code c}. */
  private static Grid grid(int m, int n) {
    int side = GemmKernels.SIDE;
    return Grid.of(
        Math.ceilDiv(n, GemmKernels.BLOCK) * side, Math.ceilDiv(m, GemmKernels.BLOCK) * side);
  }

  /**
   * Where the three matrices start in their arrays, and how far apart their rows lie.
   *
   * @param offsetA {@code a}'s first element
   * @param lda the distance between {@code a}'s rows
   * @param offsetB {@code b}'s first element
   * @param ldb the distance between {@code b}'s rows
   * @param offsetC {@code c}'s (and the residual's) first element
   * @param ldc the distance between {@code c}'s rows
   */
  private record Strides(int offsetA, int lda, int offsetB, int ldb, int offsetC, int ldc) {
    /** Whole arrays: each from 0, its rows one after another. */
    static Strides natural(int m, int n, int k, boolean transA, boolean transB) {
      return new Strides(0, transA ? m : k, 0, transB ? k : n, 0, n);
    }

    /** Checks the shape, then each matrix against its array. */
    void check(
        int m,
        int n,
        int k,
        boolean transA,
        boolean transB,
        int aLength,
        int bLength,
        int cLength) {
      if (k < 0) {
        throw new IllegalArgumentException("k: " + k);
      }
      Shapes.strided("a", aLength, offsetA, transA ? k : m, transA ? m : k, lda);
      Shapes.strided("b", bLength, offsetB, transB ? n : k, transB ? k : n, ldb);
      Shapes.strided("c", cLength, offsetC, m, n, ldc);
    }

    /**
     * Whether every offset and row distance is a multiple of 4 floats, so that {@link
     * GemmKernels#floatsInQuads} (or {@link GemmKernels#floatsInQuadsScaled}) may run.
     */
    boolean inQuads() {
      return (offsetA | lda | offsetB | ldb | offsetC | ldc) % 4 == 0;
    }

    /**
     * Whether the factors' offsets and row distances are multiples of 4 elements, so that {@link
     * GemmKernels#floatSlicesInQuads} may run (c is not read by the slices).
     */
    boolean factorsInQuads() {
      return (offsetA | lda | offsetB | ldb) % 4 == 0;
    }

    /**
     * Whether the factors' offsets and row distances are multiples of 8 elements, so that {@link
     * TileGemmKernels#halvesInOctets} may run.
     */
    boolean inOctets() {
      return (offsetA | lda | offsetB | ldb) % 8 == 0;
    }
  }
}
