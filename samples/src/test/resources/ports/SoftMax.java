package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llama.cpp, ggml-vulkan's soft_max.comp without mask or ALiBi: a workgroup per row; the row's
 * maximum, then the sum of the exponentials, each a tree in workgroup memory whose total every
 * invocation reads after the loop, then the row scaled in place.
 */
final class SoftMax {
  static final double TOLERANCE = 1e-5;
  static final int BLOCK = 64;
  static final int ROWS = 9;
  static final int NCOLS = 150;

  @Kernel(workgroup = BLOCK)
  static void softMax(@Buffer(Access.READ) float[] x, float[] dst, int ncols, float scale) {
    float[] vals = Gpu.sharedFloats(BLOCK);
    int tid = Gpu.localId(0);
    int row = Gpu.workgroupId(0);
    float maxVal = Float.NEGATIVE_INFINITY;
    for (int col = tid; col < ncols; col += BLOCK) {
      maxVal = Math.max(maxVal, x[row * ncols + col] * scale);
    }
    vals[tid] = maxVal;
    Gpu.barrier();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (tid < s) {
        vals[tid] = Math.max(vals[tid], vals[tid + s]);
      }
      Gpu.barrier();
    }
    maxVal = vals[0];
    Gpu.barrier();
    float sum = 0f;
    for (int col = tid; col < ncols; col += BLOCK) {
      float v = Gpu.exp(x[row * ncols + col] * scale - maxVal);
      sum += v;
      dst[row * ncols + col] = v;
    }
    vals[tid] = sum;
    Gpu.barrier();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (tid < s) {
        vals[tid] += vals[tid + s];
      }
      Gpu.barrier();
    }
    float inverse = 1f / vals[0];
    for (int col = tid; col < ncols; col += BLOCK) {
      dst[row * ncols + col] *= inverse;
    }
  }

  static final int softMaxGrid = ROWS * BLOCK;

  static Object[] softMaxArgs(Random r) {
    return new Object[] {floats(r, ROWS * NCOLS), new float[ROWS * NCOLS], NCOLS, 0.5f};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
