package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** CUDA samples vectorAdd. */
final class VectorAdd {
  static final double TOLERANCE = 0;
  static final int N = 50_001;

  @Kernel(workgroup = 256)
  static void vectorAdd(float[] a, float[] b, float[] c, int numElements) {
    int i = Gpu.workgroupId(0) * 256 + Gpu.localId(0);
    if (i < numElements) {
      c[i] = a[i] + b[i] + 0.0f;
    }
  }

  static final int vectorAddGrid = N;

  static Object[] vectorAddArgs(Random r) {
    float[] a = new float[N];
    float[] b = new float[N];
    for (int i = 0; i < N; i++) {
      a[i] = r.nextFloat();
      b[i] = r.nextFloat();
    }
    return new Object[] {a, b, new float[N], N};
  }
}
