package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Tiled matrix product: each workgroup stages 16 x 16 tiles of both factors in workgroup memory. */
public final class MatrixMultiply {
  static final int TILE = 16;

  private MatrixMultiply() {}

  /** {@code c = a * b} for row-major {@code a} (rows x inner) and {@code b} (inner x columns). */
  @Kernel(workgroup = {TILE, TILE})
  static void multiply(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b, @Buffer(Access.WRITE) float[] c,
      int rows, int inner, int columns) {
    float[] tileA = Gpu.sharedFloats(TILE * TILE);
    float[] tileB = Gpu.sharedFloats(TILE * TILE);
    int column = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    float sum = 0f;
    for (int t = 0; t < inner; t += TILE) {
      tileA[y * TILE + x] = row < rows && t + x < inner ? a[row * inner + t + x] : 0f;
      tileB[y * TILE + x] = column < columns && t + y < inner ? b[(t + y) * columns + column] : 0f;
      Gpu.barrier();
      for (int j = 0; j < TILE; j++) {
        sum += tileA[y * TILE + j] * tileB[j * TILE + x];
      }
      Gpu.barrier();
    }
    if (row < rows && column < columns) {
      c[row * columns + column] = sum;
    }
  }
}
