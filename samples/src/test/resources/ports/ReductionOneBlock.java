package ports;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/**
 * GPULlama3.java's reductionOneBlockWithLayer and reductionFinalNormalization (TornadoVM's
 * KernelContext): each workgroup's sum of squares in a local array the helper allocates, its
 * barrier at the top of each step; then one invocation turns the partial sums into the RMS
 * normalization factor.
 */
final class ReductionOneBlock {
  static final double TOLERANCE = 1e-5;
  static final int LOCAL = 64;
  static final int SIZE = 1000;

  /** The workgroup's sum of {@code value}, in a local array of its own (context.allocateFloatLocalArray). */
  private static float localSum(float value) {
    float[] localX = Gpu.sharedFloats(LOCAL);
    int lid = Gpu.localId(0);
    localX[lid] = value;
    for (int stride = LOCAL / 2; stride > 0; stride /= 2) {
      Gpu.barrier();
      if (lid < stride) {
        localX[lid] += localX[lid + stride];
      }
    }
    Gpu.barrier();
    return localX[0];
  }

  @Kernel(workgroup = LOCAL)
  static void reductionOneBlock(float[] output, @Buffer(Access.READ) float[] x, int size) {
    int gid = Gpu.globalId(0);
    float square = gid < size ? x[gid] * x[gid] : 0f;
    float sum = localSum(square);
    if (Gpu.localId(0) == 0) {
      output[Gpu.workgroupId(0) + 1] = sum;
    }
  }

  static final int reductionOneBlockGrid = (SIZE + LOCAL - 1) / LOCAL * LOCAL;

  static Object[] reductionOneBlockArgs(Random r) {
    return new Object[] {new float[SIZE / LOCAL + 2], floats(r, SIZE), SIZE};
  }

  @Kernel
  static void reductionFinalNormalization(float[] output, int size, float ermsNorm) {
    if (Gpu.globalId(0) == 0) {
      float ss = 0f;
      for (int i = 1; i < output.length; i++) {
        ss += output[i];
      }
      ss /= size;
      ss += ermsNorm;
      output[0] = 1f / Gpu.sqrt(ss);
    }
  }

  static final int reductionFinalNormalizationGrid = 1;

  static Object[] reductionFinalNormalizationArgs(Random r) {
    float[] partials = floats(r, SIZE / LOCAL + 2);
    for (int i = 0; i < partials.length; i++) {
      partials[i] = Math.abs(partials[i]) * 40f;
    }
    return new Object[] {partials, SIZE, 1e-5f};
  }

  static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 2f - 1f;
    }
    return values;
  }
}
