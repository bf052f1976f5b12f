package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llm.c's softmax_forward_kernel1: an invocation per row finds its maximum, writes the
 * exponentials and divides its own row's elements by their sum in place.
 */
final class Softmax1 {
  static final double TOLERANCE = 1e-5;
  static final int N = 40;
  static final int C = 77;

  @Kernel(workgroup = {32})
  static void softmax(float[] out, @Buffer(Access.READ) float[] inp, int n, int c) {
    int i = Gpu.globalId(0);
    if (i < n) {
      float maxval = -10000f;
      for (int j = 0; j < c; j++) {
        if (inp[i * c + j] > maxval) {
          maxval = inp[i * c + j];
        }
      }
      float sum = 0f;
      for (int j = 0; j < c; j++) {
        out[i * c + j] = Gpu.exp(inp[i * c + j] - maxval);
        sum += out[i * c + j];
      }
      for (int j = 0; j < c; j++) {
        out[i * c + j] /= sum;
      }
    }
  }

  static final int softmaxGrid = N;

  static Object[] softmaxArgs(Random r) {
    return new Object[] {new float[N * C], floats(r, N * C), N, C};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
