package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

public final class Saxpy {
  @Kernel(workgroup = 256)
  static void saxpy(float a, @Buffer(Access.READ) float[] x, float[] y) {
    int i = Gpu.globalId(0);
    if (i < y.length) {
      y[i] = a * x[i] + y[i];
    }
  }
}
