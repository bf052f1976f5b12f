package dev.kiln.bench;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The register-blocked fp32 product of the sample {@code BlockedMatrixMultiply} written for 16-byte
 * moves: each invocation's 8 x 8 tile of {@code c} contiguous (rows {@code 8 y + i}, columns
 * {@code 8 x + j}), the factors' next stage copied into private arrays while this one multiplies,
 * the rows of the staged blocks read 8 floats at a time by copies (workgroup memory held as quads:
 * two 16-byte loads each), and the tile written back by copies. For {@code n} a multiple of 128
 * (the launcher's contract, written {@code n & -4} where it sizes rows, so that every copy is proven
 * aligned); each entry is {@code Gpu.fma} summed in k order, as the sample's.
 */
final class RegisterTiles {
  /** Rows and columns of {@code c} per workgroup. */
  static final int BLOCK = 128;
  private static final int TILE = 8;
  private static final int DEPTH = 8;

  private RegisterTiles() {}

  /** {@code c = a b}, n x n, on a grid of 16 x 16 invocations per 128 x 128 block. */
  @Kernel(workgroup = {16, 16}, boundsChecks = false)
  static void prefetchedUnchecked(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK); // [k][row]
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK); // [k][column]
    product(a, b, c, n, blockA, blockB);
  }

  /** {@link #prefetchedUnchecked} with its checks. */
  @Kernel(workgroup = {16, 16})
  static void prefetched(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    product(a, b, c, n, blockA, blockB);
  }

  /** The body of both kernels; {@code blockA} and {@code blockB} are their workgroup memory. */
  private static void product(float[] a, float[] b, float[] c, int n, float[] blockA, float[] blockB) {
    int width = n & -4;
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    int self = y * 16 + x;
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    // each invocation moves 4 floats of a (one row, 4 of k) and 4 of b (one k, 4 columns) per stage
    int rowOfA = self / 2;
    int kOfA = self % 2 * 4;
    int kOfB = self / 32;
    int columnOfB = self % 32 * 4;
    float[] sums = new float[TILE * TILE];
    float[] rowA = new float[TILE];
    float[] columnB = new float[TILE];
    float[] nextA = new float[4];
    float[] nextB = new float[4];
    System.arraycopy(a, (firstRow + rowOfA) * width + kOfA, nextA, 0, 4);
    System.arraycopy(b, kOfB * width + firstColumn + columnOfB, nextB, 0, 4);
    for (int k0 = 0; k0 < n; k0 += DEPTH) {
      for (int k = 0; k < 4; k++) {
        blockA[(kOfA + k) * BLOCK + rowOfA] = nextA[k]; // a's block transposed: [k][row]
      }
      System.arraycopy(nextB, 0, blockB, kOfB * BLOCK + columnOfB, 4);
      Gpu.barrier();
      if (k0 + DEPTH < n) {
        System.arraycopy(a, (firstRow + rowOfA) * width + k0 + DEPTH + kOfA, nextA, 0, 4);
        System.arraycopy(b, (k0 + DEPTH + kOfB) * width + firstColumn + columnOfB, nextB, 0, 4);
      }
      for (int k = 0; k < DEPTH; k++) {
        System.arraycopy(blockA, k * BLOCK + y * TILE, rowA, 0, TILE);
        System.arraycopy(blockB, k * BLOCK + x * TILE, columnB, 0, TILE);
        for (int i = 0; i < TILE; i++) {
          for (int j = 0; j < TILE; j++) {
            sums[i * TILE + j] = Gpu.fma(rowA[i], columnB[j], sums[i * TILE + j]);
          }
        }
      }
      Gpu.barrier();
    }
    for (int i = 0; i < TILE; i++) {
      System.arraycopy(sums, i * TILE, c, (firstRow + y * TILE + i) * width + firstColumn + x * TILE, TILE);
    }
  }
}
