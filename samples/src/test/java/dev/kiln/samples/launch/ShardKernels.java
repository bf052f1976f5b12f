package dev.kiln.samples.launch;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Kernels for {@link ShardedLaunchTest}: each reads its buffers in one of the ways a sharded launch serves. */
final class ShardKernels {
  private ShardKernels() {}

  /**
   * One Jacobi step of the 5-point stencil on a grid of rows {@code width} long, flattened: an interior point becomes
   * the mean of its four neighbours, the border stays. Reads {@code in} up to a row away from each id.
   */
  @Kernel(workgroup = 64)
  static void relax(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int width) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      int x = i % width;
      if (x == 0 || x == width - 1 || i < width || i + width >= out.length) {
        out[i] = in[i];
      } else {
        out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
      }
    }
  }

  /** Gathers {@code table[keys[i]]}: the table is read anywhere, so every device needs all of it. */
  @Kernel(workgroup = 64)
  static void lookUp(@Buffer(Access.READ) int[] keys, @Buffer(Access.READ) float[] table,
      @Buffer(Access.WRITE) float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = table[keys[i]];
    }
  }

  /** Scales {@code x} in place, its own element per id. */
  @Kernel(workgroup = 128)
  static void scale(float[] x, float factor) {
    int i = Gpu.globalId(0);
    if (i < x.length) {
      x[i] = x[i] * factor;
    }
  }
}
