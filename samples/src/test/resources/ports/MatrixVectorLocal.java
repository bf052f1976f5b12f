package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * GPULlama3.java's matrixVectorGeneric and its helper matrixVectorRowMajorOptimized (TornadoVM's
 * KernelContext): a workgroup per row; the helper allocates the local array it reduces in, and the
 * kernel calls it for two matrices.
 */
final class MatrixVectorLocal {
  static final double TOLERANCE = 0;
  static final int LOCAL = 32;
  static final int DIM = 21;
  static final int N = 100;

  private static float rowTimesVector(float[] x, float[] w, int n) {
    float[] localSum = Gpu.sharedFloats(LOCAL);
    int rowId = Gpu.workgroupId(0);
    int localId = Gpu.localId(0);
    int rowOffset = rowId * n;
    float partialSum = 0f;
    for (int j = localId; j < n; j += LOCAL) {
      partialSum += w[rowOffset + j] * x[j];
    }
    localSum[localId] = partialSum;
    Gpu.barrier();
    for (int stride = LOCAL / 2; stride > 0; stride >>= 1) {
      if (localId < stride) {
        localSum[localId] += localSum[localId + stride];
      }
      Gpu.barrier();
    }
    return localSum[0];
  }

  @Kernel(workgroup = LOCAL)
  static void matrixVectorTwice(@Buffer(Access.READ) float[] x, float[] hb, @Buffer(Access.READ) float[] w1,
      @Buffer(Access.READ) float[] w3, int n, int d) {
    int rowId = Gpu.workgroupId(0);
    if (rowId >= d) {
      return;
    }
    float first = rowTimesVector(x, w1, n);
    float second = rowTimesVector(x, w3, n);
    if (Gpu.localId(0) == 0) {
      hb[rowId] = first * second;
    }
  }

  static final int matrixVectorTwiceGrid = DIM * LOCAL;

  static Object[] matrixVectorTwiceArgs(Random r) {
    return new Object[] {floats(r, N), new float[DIM], floats(r, DIM * N), floats(r, DIM * N), N, DIM};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
