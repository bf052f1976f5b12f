package test;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

public final class Helpers {
  static int factorial(int n) {
    return n <= 1 ? 1 : n * factorial(n - 1); // ERROR: [kiln.helper.recursion]
  }

  static float clamped(float[] a, int i) {
    if (i < 0) {
      return a[0];
    }
    return a[i];
  }

  static float first(float[] a) {
    return a[0];
  }

  static String name() {
    return "x";
  }

  @Kernel
  static void kernel(float[] x, float[] y) {
    int i = Gpu.globalId(0);
    x[i] = factorial(i);
    x[i] = 1f + clamped(x, i); // a helper with statements inside an expression: fine
    x[i] = first(i > 0 ? x : y); // ERROR: [kiln.helper.array]
    x[i] = name().length(); // ERROR: [kiln.unsupported.call]
  }

  static void stage(float[] out, int i) {
    float[] tile = Gpu.sharedFloats(64); // ERROR: [kiln.shared.declaration]
    tile[Gpu.localId(0)] = out[i];
    Gpu.barrier(); // ERROR: [kiln.barrier.divergent] (the call is under an if)
    out[i] = tile[0];
  }

  /** A helper that declares workgroup memory, called under an if: not every invocation declares it. */
  @Kernel(workgroup = 64)
  static void sharedInHelper(float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      stage(out, i);
    }
  }

  static float late(float[] out, int i) {
    if (i >= out.length) {
      return 0f;
    }
    float[] tile = Gpu.sharedFloats(64); // ERROR: [kiln.shared.declaration] (after a return some take)
    tile[Gpu.localId(0)] = out[i];
    return tile[0];
  }

  /** The helper is called as a statement, but declares its array after a return. */
  @Kernel(workgroup = 64)
  static void sharedAfterReturn(float[] out) {
    int i = Gpu.globalId(0);
    float v = late(out, i);
    if (i < out.length) {
      out[i] = v;
    }
  }
}
