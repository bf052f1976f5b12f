package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llm.c's layernorm_forward_kernel1: an invocation per row; its row pointer {@code x} is the
 * input while the mean and variance are taken, then the output row it writes.
 */
final class LayerNorm {
  static final double TOLERANCE = 1e-5;
  static final int N = 70;
  static final int C = 48;

  @Kernel(workgroup = {32})
  static void layernorm(float[] out, float[] mean, float[] rstd, @Buffer(Access.READ) float[] inp,
      @Buffer(Access.READ) float[] weight, @Buffer(Access.READ) float[] bias, int n, int c) {
    float eps = 1e-5f;
    int idx = Gpu.globalId(0);
    if (idx < n) {
      float[] x = inp;
      int row = idx * c;
      float m = 0f;
      for (int i = 0; i < c; i++) {
        m += x[row + i];
      }
      m = m / c;
      float v = 0f;
      for (int i = 0; i < c; i++) {
        float xshift = x[row + i] - m;
        v += xshift * xshift;
      }
      v = v / c;
      float s = 1f / Gpu.sqrt(v + eps);
      x = out;
      for (int i = 0; i < c; i++) {
        float normalized = s * (inp[row + i] - m);
        x[row + i] = normalized * weight[i] + bias[i];
      }
      mean[idx] = m;
      rstd[idx] = s;
    }
  }

  static final int layernormGrid = N;

  static Object[] layernormArgs(Random r) {
    return new Object[] {new float[N * C], new float[N], new float[N], floats(r, N * C), floats(r, C), floats(r, C),
        N, C};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
