package dev.kiln.library;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The kernel behind {@link Gemm}: the register-blocked product of the sample {@code
 * BlockedMatrixMultiply} for any shape, either operand transposed, and an epilogue. A workgroup of
 * 16 x 16 computes a {@link #BLOCK} x {@link #BLOCK} block of {@code c}, each invocation an 8 x 8
 * tile of it (rows {@code y + 16i}, columns {@code x + 16j}) in a private array; the factors pass
 * through workgroup memory {@link #DEPTH} values of k at a time. Each entry is {@code Gpu.fma}
 * summed in k order; the epilogue then runs in Java's float arithmetic, in {@link Gemm}'s order.
 */
final class GemmKernels {
  /** Rows and columns of {@code c} per workgroup. */
  static final int BLOCK = Tuning.GEMM_BLOCK;

  /** Rows and columns of {@code c} per invocation. */
  static final int TILE = Tuning.GEMM_TILE;

  static final int SIDE = BLOCK / TILE;
  static final int DEPTH = Tuning.GEMM_DEPTH;

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
   * or {@code b} n x k. {@code c} is not read where {@code beta} is 0.
   */
  @Kernel(workgroup = {SIDE, SIDE})
  @SuppressWarnings("kiln.race.update") // c[row * n + column]: each invocation's own 8 x 8 tile
  static void floats(
      @Buffer(Access.READ) float[] a,
      @Buffer(Access.READ) float[] b,
      @Buffer(Access.READ_WRITE) float[] c,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.READ) float[] residual,
      int m,
      int n,
      int k,
      int transA,
      int transB,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK); // [k][row]
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK); // [k][column]
    float[] sums = new float[TILE * TILE];
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    int self = y * SIDE + x;
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    for (int k0 = 0; k0 < k; k0 += DEPTH) {
      for (int part = 0; part < DEPTH * BLOCK / (SIDE * SIDE); part++) {
        int e = self + part * SIDE * SIDE;
        // a: row-major reads along k, transposed ones along the rows
        int row = transA != 0 ? firstRow + e % BLOCK : firstRow + e / DEPTH;
        int ka = transA != 0 ? k0 + e / BLOCK : k0 + e % DEPTH;
        float va = 0f;
        if (row < m && ka < k) {
          va = transA != 0 ? a[ka * m + row] : a[row * k + ka];
        }
        blockA[(ka - k0) * BLOCK + row - firstRow] = va;
        // b: row-major reads along the columns, transposed ones along k
        int column = transB != 0 ? firstColumn + e / DEPTH : firstColumn + e % BLOCK;
        int kb = transB != 0 ? k0 + e % DEPTH : k0 + e / BLOCK;
        float vb = 0f;
        if (kb < k && column < n) {
          vb = transB != 0 ? b[column * k + kb] : b[kb * n + column];
        }
        blockB[(kb - k0) * BLOCK + column - firstColumn] = vb;
      }
      Gpu.barrier();
      multiply(blockA, blockB, sums, x, y);
      Gpu.barrier();
    }
    finish(
        c,
        bias,
        residual,
        sums,
        firstRow + y,
        firstColumn + x,
        m,
        n,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual);
  }

  /**
   * {@link #floats} with {@code a} and {@code b} 16-bit floats, float16 ({@code
   * Float.float16ToFloat}) or, where {@code bfloat} is not 0, bfloat16 (a float's upper 16 bits),
   * each decoded exactly as it is staged; the sums and the epilogue as {@link #floats}'.
   */
  @Kernel(workgroup = {SIDE, SIDE})
  @SuppressWarnings("kiln.race.update") // c[row * n + column]: each invocation's own 8 x 8 tile
  static void shorts(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) short[] b,
      @Buffer(Access.READ_WRITE) float[] c,
      @Buffer(Access.READ) float[] bias,
      @Buffer(Access.READ) float[] residual,
      int m,
      int n,
      int k,
      int transA,
      int transB,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual,
      int bfloat) {
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK); // [k][row]
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK); // [k][column]
    float[] sums = new float[TILE * TILE];
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    int self = y * SIDE + x;
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    for (int k0 = 0; k0 < k; k0 += DEPTH) {
      for (int part = 0; part < DEPTH * BLOCK / (SIDE * SIDE); part++) {
        int e = self + part * SIDE * SIDE;
        int row = transA != 0 ? firstRow + e % BLOCK : firstRow + e / DEPTH;
        int ka = transA != 0 ? k0 + e / BLOCK : k0 + e % DEPTH;
        float va = 0f;
        if (row < m && ka < k) {
          va = decode(transA != 0 ? a[ka * m + row] : a[row * k + ka], bfloat);
        }
        blockA[(ka - k0) * BLOCK + row - firstRow] = va;
        int column = transB != 0 ? firstColumn + e / DEPTH : firstColumn + e % BLOCK;
        int kb = transB != 0 ? k0 + e % DEPTH : k0 + e / BLOCK;
        float vb = 0f;
        if (kb < k && column < n) {
          vb = decode(transB != 0 ? b[column * k + kb] : b[kb * n + column], bfloat);
        }
        blockB[(kb - k0) * BLOCK + column - firstColumn] = vb;
      }
      Gpu.barrier();
      multiply(blockA, blockB, sums, x, y);
      Gpu.barrier();
    }
    finish(
        c,
        bias,
        residual,
        sums,
        firstRow + y,
        firstColumn + x,
        m,
        n,
        alpha,
        beta,
        biasAxis,
        activation,
        withResidual);
  }

  /** A 16-bit float's value: float16 bits, or bfloat16 bits where {@code bfloat} is not 0. */
  private static float decode(short bits, int bfloat) {
    return bfloat != 0 ? Float.intBitsToFloat(bits << 16) : Float.float16ToFloat(bits);
  }

  /**
   * Adds the staged blocks' products to this invocation's tile: rows {@code y + 16i}, columns
   * {@code x + 16j}, k in order.
   */
  private static void multiply(float[] blockA, float[] blockB, float[] sums, int x, int y) {
    float[] rowA = new float[TILE];
    float[] columnB = new float[TILE];
    for (int kk = 0; kk < DEPTH; kk++) {
      for (int i = 0; i < TILE; i++) {
        rowA[i] = blockA[kk * BLOCK + y + SIDE * i];
        columnB[i] = blockB[kk * BLOCK + x + SIDE * i];
      }
      for (int i = 0; i < TILE; i++) {
        for (int j = 0; j < TILE; j++) {
          sums[i * TILE + j] = Gpu.fma(rowA[i], columnB[j], sums[i * TILE + j]);
        }
      }
    }
  }

  /**
   * Writes this invocation's tile, whose first entry is {@code (row, column)}, through the
   * epilogue: {@code α·sum}, {@code + β·c}, the bias, the activation, the residual.
   */
  private static void finish(
      float[] c,
      float[] bias,
      float[] residual,
      float[] sums,
      int firstRow,
      int firstColumn,
      int m,
      int n,
      float alpha,
      float beta,
      int biasAxis,
      int activation,
      int withResidual) {
    for (int i = 0; i < TILE; i++) {
      for (int j = 0; j < TILE; j++) {
        int row = firstRow + SIDE * i;
        int column = firstColumn + SIDE * j;
        if (row < m && column < n) {
          float v = alpha * sums[i * TILE + j];
          if (beta != 0f) {
            v += beta * c[row * n + column];
          }
          if (biasAxis == PER_ROW) {
            v += bias[row];
          } else if (biasAxis == PER_COLUMN) {
            v += bias[column];
          }
          v = activate(v, activation);
          if (withResidual != 0) {
            v += residual[row * n + column];
          }
          c[row * n + column] = v;
        }
      }
    }
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
