package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** CUDA samples matrixMul: C = A B in 16 x 16 tiles staged through workgroup memory (sizes multiples of the tile). */
final class MatrixMul {
  static final double TOLERANCE = 0;
  static final int BLOCK = 16;
  static final int HA = 48;
  static final int WA = 64;
  static final int WB = 32;

  @Kernel(workgroup = {BLOCK, BLOCK})
  static void matrixMulCuda(float[] c, float[] a, float[] b, int wA, int wB) {
    int bx = Gpu.workgroupId(0);
    int by = Gpu.workgroupId(1);
    int tx = Gpu.localId(0);
    int ty = Gpu.localId(1);
    int aBegin = wA * BLOCK * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK;
    int bBegin = BLOCK * bx;
    int bStep = BLOCK * wB;
    float cSub = 0;
    float[] as = Gpu.sharedFloats(BLOCK * BLOCK);
    float[] bs = Gpu.sharedFloats(BLOCK * BLOCK);
    for (int x = aBegin, y = bBegin; x <= aEnd; x += aStep, y += bStep) {
      as[ty * BLOCK + tx] = a[x + wA * ty + tx];
      bs[ty * BLOCK + tx] = b[y + wB * ty + tx];
      Gpu.barrier();
      for (int k = 0; k < BLOCK; ++k) {
        cSub += as[ty * BLOCK + k] * bs[k * BLOCK + tx];
      }
      Gpu.barrier();
    }
    int cc = wB * BLOCK * by + BLOCK * bx;
    c[cc + wB * ty + tx] = cSub;
  }

  static final int[] matrixMulCudaGrid = {WB, HA};

  static Object[] matrixMulCudaArgs(Random r) {
    return new Object[] {new float[HA * WB], floats(r, HA * WA), floats(r, WA * WB), WA, WB};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextInt(32) / 8f;
    }
    return values;
  }
}
