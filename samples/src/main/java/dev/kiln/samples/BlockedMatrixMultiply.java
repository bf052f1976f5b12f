package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * A register-blocked fp32 matrix product, the shape of fast GPU GEMMs written as plain Java: each
 * workgroup of 16 x 16 invocations computes a 128 x 128 block of {@code c}, each invocation an 8 x 8
 * tile of it held in a private array. The factors pass through workgroup memory 8 columns of
 * {@code a} and 8 rows of {@code b} at a time. An invocation's tile is strided (rows {@code y + 16 i},
 * columns {@code x + 16 j}), so that neighbouring invocations read neighbouring words of workgroup
 * memory and write neighbouring words of {@code c}. Each entry is {@code Gpu.fma} summed in k order:
 * the bits of Java's {@code Math.fma} loop on the CPU backend and on GPUs that fuse (all current
 * discrete GPUs do; lavapipe does not).
 */
public final class BlockedMatrixMultiply {
  /** Rows and columns of {@code c} per workgroup. */
  public static final int BLOCK = 128;
  /** Rows and columns of {@code c} per invocation. */
  public static final int TILE = 8;
  static final int SIDE = BLOCK / TILE;
  static final int DEPTH = 8;

  private BlockedMatrixMultiply() {}

  /**
   * {@code c = a b} for row-major {@code a} (rows x inner) and {@code b} (inner x columns), on a
   * grid of {@code ceil(columns / 8) x ceil(rows / 8)} invocations.
   */
  @Kernel(workgroup = {SIDE, SIDE})
  static void multiply(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b, @Buffer(Access.WRITE) float[] c,
      int rows, int inner, int columns) {
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK); // [k][row]
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK); // [k][column]
    float[] sums = new float[TILE * TILE];
    float[] rowA = new float[TILE];
    float[] columnB = new float[TILE];
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    int self = y * SIDE + x;
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    for (int k0 = 0; k0 < inner; k0 += DEPTH) {
      for (int part = 0; part < DEPTH * BLOCK / (SIDE * SIDE); part++) {
        int e = self + part * SIDE * SIDE;
        int row = firstRow + e / DEPTH;
        int k = k0 + e % DEPTH;
        blockA[e % DEPTH * BLOCK + e / DEPTH] = row < rows && k < inner ? a[row * inner + k] : 0f;
        int kb = k0 + e / BLOCK;
        int column = firstColumn + e % BLOCK;
        blockB[e] = kb < inner && column < columns ? b[kb * columns + column] : 0f;
      }
      Gpu.barrier();
      for (int k = 0; k < DEPTH; k++) {
        for (int i = 0; i < TILE; i++) {
          rowA[i] = blockA[k * BLOCK + y + SIDE * i];
          columnB[i] = blockB[k * BLOCK + x + SIDE * i];
        }
        for (int i = 0; i < TILE; i++) {
          for (int j = 0; j < TILE; j++) {
            sums[i * TILE + j] = Gpu.fma(rowA[i], columnB[j], sums[i * TILE + j]);
          }
        }
      }
      Gpu.barrier();
    }
    for (int i = 0; i < TILE; i++) {
      for (int j = 0; j < TILE; j++) {
        int row = firstRow + y + SIDE * i;
        int column = firstColumn + x + SIDE * j;
        if (row < rows && column < columns) {
          c[row * columns + column] = sums[i * TILE + j];
        }
      }
    }
  }
}
