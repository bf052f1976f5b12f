package dev.kiln.samples.fusion;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/** Kernels given one array for two parameters ({@link AliasingTest}). */
final class AliasKernels {
  private AliasKernels() {}

  /** Reads its neighbours' elements of {@code in}: one array for both would depend on the device's order. */
  @Kernel(workgroup = 64)
  @FuseGroup("smoothThenScale")
  static void neighbours(@Buffer(Access.READ) float[] in, float[] out) {
    int i = Gpu.globalId(0);
    if (i > 0 && i + 1 < in.length && i < out.length) {
      out[i] = in[i - 1] + in[i + 1];
    }
  }

  /**
   * Each invocation reads its own element of {@code in}, then writes its own of {@code out}: one
   * array may be passed for both.
   */
  @Kernel(workgroup = 64)
  @FuseGroup("smoothThenScale")
  static void scaleInto(@Buffer(Access.READ) float[] in, float[] out, float s) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < in.length) {
      float v = in[i];
      out[i] = 1f;
      out[i] += v * s;
    }
  }

  /**
   * Its own elements too, but it writes {@code out} before it reads {@code in}: Java would read
   * what it wrote, the vectorized kernel reads first. Refused for one array.
   */
  @Kernel(workgroup = 64)
  static void writeThenRead(@Buffer(Access.READ) float[] in, float[] out, float s) {
    int i = Gpu.globalId(0);
    if (i < out.length && i < in.length) {
      out[i] = 1f;
      out[i] += in[i] * s;
    }
  }
}
