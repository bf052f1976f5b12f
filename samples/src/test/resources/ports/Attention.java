package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * llm.c's attention_query_key_kernel1 and attention_softmax_kernel1: the causal scores of each
 * (batch, head, query, key), then each row's softmax over the keys up to its query, in place.
 */
final class Attention {
  static final double TOLERANCE = 1e-5;
  static final int B = 2;
  static final int T = 9;
  static final int NH = 3;
  static final int HS = 8;

  @Kernel(workgroup = {64})
  static void queryKey(float[] preatt, @Buffer(Access.READ) float[] inp, int b, int t, int c, int nh) {
    int idx = Gpu.globalId(0);
    int total = b * nh * t * t;
    if (idx < total) {
      int t2 = idx % t;
      int tq = (idx / t) % t;
      if (t2 > tq) {
        preatt[idx] = Float.NEGATIVE_INFINITY;
        return;
      }
      int h = (idx / (t * t)) % nh;
      int bIndex = idx / (nh * t * t);
      int c3 = c * 3;
      int hs = c / nh;
      int query = bIndex * t * c3 + tq * c3 + h * hs;
      int key = bIndex * t * c3 + t2 * c3 + h * hs + c;
      float val = 0f;
      for (int i = 0; i < hs; i++) {
        val += inp[query + i] * inp[key + i];
      }
      val *= 1f / Gpu.sqrt(hs);
      preatt[idx] = val;
    }
  }

  static final int queryKeyGrid = B * NH * T * T;

  static Object[] queryKeyArgs(Random r) {
    return new Object[] {new float[B * NH * T * T], floats(r, B * T * 3 * NH * HS), B, T, NH * HS, NH};
  }

  @Kernel(workgroup = {32})
  static void softmax(float[] att, @Buffer(Access.READ) float[] preatt, int b, int t, int nh) {
    int idx = Gpu.globalId(0);
    int total = b * t * nh;
    if (idx < total) {
      int h = idx % nh;
      int tq = (idx / nh) % t;
      int bIndex = idx / (nh * t);
      int row = bIndex * nh * t * t + h * t * t + tq * t;
      float maxval = -10000f;
      for (int t2 = 0; t2 <= tq; t2++) {
        if (preatt[row + t2] > maxval) {
          maxval = preatt[row + t2];
        }
      }
      float expsum = 0f;
      for (int t2 = 0; t2 <= tq; t2++) {
        float expv = Gpu.exp(preatt[row + t2] - maxval);
        expsum += expv;
        att[row + t2] = expv;
      }
      float expsumInv = expsum == 0f ? 0f : 1f / expsum;
      for (int t2 = 0; t2 < t; t2++) {
        if (t2 <= tq) {
          att[row + t2] *= expsumInv;
        } else {
          att[row + t2] = 0f;
        }
      }
    }
  }

  static final int softmaxGrid = B * T * NH;

  static Object[] softmaxArgs(Random r) {
    return new Object[] {new float[B * NH * T * T], floats(r, B * NH * T * T), B, T, NH};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
