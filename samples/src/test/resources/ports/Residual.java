package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llm.c's residual_forward_kernel and gelu_forward_kernel in grid-stride loops, and a bias added
 * over rows and channels, the row the y id on a one-dimensional workgroup.
 */
final class Residual {
  static final double TOLERANCE = 1e-5;
  static final int N = 3001;
  static final int ROWS = 19;
  static final int C = 70;
  static final float GELU_SCALING_FACTOR = 0.7978845608f;

  @Kernel(workgroup = {128})
  static void residual(float[] out, @Buffer(Access.READ) float[] inp1, @Buffer(Access.READ) float[] inp2, int n) {
    for (int i = Gpu.globalId(0); i < n; i += Gpu.numWorkgroups(0) * 128) {
      out[i] = inp1[i] + inp2[i];
    }
  }

  static final int residualGrid = 1024;

  static Object[] residualArgs(Random r) {
    return new Object[] {new float[N], floats(r, N), floats(r, N), N};
  }

  @Kernel(workgroup = {128})
  static void gelu(float[] out, @Buffer(Access.READ) float[] inp, int n) {
    int i = Gpu.globalId(0);
    if (i < n) {
      float xi = inp[i];
      float cube = 0.044715f * xi * xi * xi;
      out[i] = 0.5f * xi * (1f + Gpu.tanh(GELU_SCALING_FACTOR * (xi + cube)));
    }
  }

  static final int geluGrid = N;

  static Object[] geluArgs(Random r) {
    return new Object[] {new float[N], floats(r, N), N};
  }

  @Kernel(workgroup = {64})
  static void addBias(float[] out, @Buffer(Access.READ) float[] inp, @Buffer(Access.READ) float[] bias, int rows,
      int c) {
    for (int row = Gpu.globalId(1); row < rows; row += Gpu.numWorkgroups(1)) {
      int col = Gpu.globalId(0);
      if (col < c) {
        out[row * c + col] = inp[row * c + col] + bias[col];
      }
    }
  }

  /** llm.c's add_bias: a grid-stride loop over every element, each updated in place. */
  @Kernel(workgroup = {128})
  static void addBiasInPlace(float[] out, @Buffer(Access.READ) float[] bias, int n, int oc) {
    int stride = Gpu.numWorkgroups(0) * 128;
    for (int idx = Gpu.globalId(0); idx < n; idx += stride) {
      int col = idx % oc;
      out[idx] += bias[col];
    }
  }

  static final int addBiasInPlaceGrid = 512;

  static Object[] addBiasInPlaceArgs(Random r) {
    return new Object[] {floats(r, ROWS * C), floats(r, C), ROWS * C, C};
  }

  static final int[] addBiasGrid = {C, 4};

  static Object[] addBiasArgs(Random r) {
    return new Object[] {new float[ROWS * C], floats(r, ROWS * C), floats(r, C), ROWS, C};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
