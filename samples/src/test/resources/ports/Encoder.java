package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llm.c's encoder_forward_kernel2: the token embedding plus the position embedding, an invocation
 * per output element, the (b, t, c) coordinates recovered by division.
 */
final class Encoder {
  static final double TOLERANCE = 0;
  static final int B = 3;
  static final int T = 7;
  static final int C = 33;
  static final int V = 50;

  @Kernel(workgroup = {64})
  static void encoder(float[] out, @Buffer(Access.READ) int[] inp, @Buffer(Access.READ) float[] wte,
      @Buffer(Access.READ) float[] wpe, int b, int t, int c) {
    int idx = Gpu.globalId(0);
    int n = b * t * c;
    if (idx < n) {
      int bt = idx / c;
      int bIndex = bt / t;
      int tIndex = bt % t;
      int cIndex = idx % c;
      int ix = inp[bIndex * t + tIndex];
      out[bIndex * t * c + tIndex * c + cIndex] = wte[ix * c + cIndex] + wpe[tIndex * c + cIndex];
    }
  }

  static final int encoderGrid = B * T * C;

  static Object[] encoderArgs(Random r) {
    int[] tokens = new int[B * T];
    for (int i = 0; i < tokens.length; i++) {
      tokens[i] = r.nextInt(V);
    }
    return new Object[] {new float[B * T * C], tokens, floats(r, V * C), floats(r, T * C), B, T, C};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
