package javacErrors;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Kernels with javac's own errors: Kiln adds nothing to them, and does not crash. */
class AfterJavac {
  @Kernel
  static void unknownSymbol(float[] out) {
    int i = Gpu.globalId(0);
    float v = undefinedValue;
    if (i < out.length) {
      out[i] = v + v;
      out[i] = v * 2f;
    }
  }

  @Kernel
  static void strayJumps(float[] out) {
    int i = Gpu.globalId(0);
    break;
    continue;
    if (i < out.length) {
      out[i] = 1f;
    }
  }
}
