package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llama.cpp, ggml-vulkan's rms_norm.comp: a workgroup per row sums the squares over a strided share
 * of the columns, a tree in workgroup memory totals them, and every invocation scales its columns
 * by 1 / sqrt(mean + eps).
 */
final class RmsNorm {
  static final double TOLERANCE = 1e-5;
  static final int BLOCK = 128;
  static final int ROWS = 5;
  static final int NCOLS = 333;

  @Kernel(workgroup = BLOCK)
  static void rmsNorm(@Buffer(Access.READ) float[] x, float[] dst, int ncols, float eps) {
    float[] sum = Gpu.sharedFloats(BLOCK);
    int row = Gpu.workgroupId(0);
    int tid = Gpu.localId(0);
    sum[tid] = 0f;
    for (int col = tid; col < ncols; col += BLOCK) {
      float xi = x[row * ncols + col];
      sum[tid] += xi * xi;
    }
    Gpu.barrier();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
      if (tid < s) {
        sum[tid] += sum[tid + s];
      }
      Gpu.barrier();
    }
    float mean = sum[0] / ncols;
    float scale = 1f / Gpu.sqrt(mean + eps);
    for (int col = tid; col < ncols; col += BLOCK) {
      dst[row * ncols + col] = scale * x[row * ncols + col];
    }
  }

  static final int rmsNormGrid = ROWS * BLOCK;

  static Object[] rmsNormArgs(Random r) {
    return new Object[] {floats(r, ROWS * NCOLS), new float[ROWS * NCOLS], NCOLS, 1e-6f};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
