package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia backprop: bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda (16 x 16 blocks). */
final class Backprop {
  static final double TOLERANCE = 0;
  static final int HEIGHT = 16;
  static final int WIDTH = 16;
  static final int BLOCKS = 5;
  static final int IN = HEIGHT * BLOCKS;
  static final int HID = 16;

  @Kernel(workgroup = {16, 16})
  static void layerForward(float[] input, float[] weights, float[] partial, int in, int hid) {
    int by = Gpu.workgroupId(1);
    int tx = Gpu.localId(0);
    int ty = Gpu.localId(1);
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int indexIn = HEIGHT * by + ty + 1;
    float[] inputNode = Gpu.sharedFloats(HEIGHT);
    float[] weightMatrix = Gpu.sharedFloats(HEIGHT * WIDTH);
    if (tx == 0) {
      inputNode[ty] = input[indexIn];
    }
    Gpu.barrier();
    weightMatrix[ty * WIDTH + tx] = weights[index];
    Gpu.barrier();
    weightMatrix[ty * WIDTH + tx] = weightMatrix[ty * WIDTH + tx] * inputNode[ty];
    Gpu.barrier();
    for (int i = 1; i <= 4; i++) {
      int power = 1 << i;
      if (ty % power == 0) {
        weightMatrix[ty * WIDTH + tx] = weightMatrix[ty * WIDTH + tx] + weightMatrix[(ty + power / 2) * WIDTH + tx];
      }
      Gpu.barrier();
    }
    weights[index] = weightMatrix[ty * WIDTH + tx];
    Gpu.barrier();
    if (tx == 0) {
      partial[by * hid + ty] = weightMatrix[tx * WIDTH + ty];
    }
  }

  static final int[] layerForwardGrid = {16, IN};

  static Object[] layerForwardArgs(Random r) {
    return new Object[] {floats(r, IN + 1), floats(r, (IN + 1) * (HID + 1)), new float[BLOCKS * HID], IN, HID};
  }

  @Kernel(workgroup = {16, 16})
  static void adjustWeights(float[] delta, int hid, float[] ly, int in, float[] w, float[] oldw) {
    int tx = Gpu.globalId(0);
    int ty = Gpu.globalId(1);
    if (tx < hid && ty < in) {
      int index = (hid + 1) * (ty + 1) + tx + 1;
      float dw = 0.3f * delta[tx + 1] * ly[ty + 1] + 0.3f * oldw[index];
      w[index] += dw;
      oldw[index] = dw;
    }
  }

  static final int[] adjustWeightsGrid = {HID, IN};

  static Object[] adjustWeightsArgs(Random r) {
    return new Object[] {floats(r, HID + 1), HID, floats(r, IN + 1), IN, floats(r, (IN + 1) * (HID + 1)),
        floats(r, (IN + 1) * (HID + 1))};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
