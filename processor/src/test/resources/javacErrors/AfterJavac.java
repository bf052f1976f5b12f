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

  static float helper(float a) {
    return a;
  }

  @Kernel
  static void helperWithTooManyArguments(float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = helper(1f, 2f);
    }
  }

  @Kernel
  static void switchExpressionNotExhaustive(int[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = switch (i & 3) {
        case 0 -> 1;
        case 1 -> 2;
      };
    }
  }

  @Kernel
  static void yieldOutsideASwitchExpression(int[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      yield 3;
    }
  }
}
