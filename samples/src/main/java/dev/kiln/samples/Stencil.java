package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * One Jacobi step of a 5-point stencil on a row-major 2-D grid: as a 2-D launch with a {@code Grid}, and as a 1-D
 * launch over the flattened grid, which splits across devices and runs on sharded arrays (a row of halo each side).
 */
public final class Stencil {
  private Stencil() {}

  /** Each inner cell becomes the mean of itself and its four neighbours; border cells are copied. */
  @Kernel(workgroup = {16, 16})
  static void smooth(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int width, int height) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
      out[i] = in[i];
      return;
    }
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
  }

  /** {@link #smooth} with one id per cell of the flattened grid, whose rows are {@code width} long. */
  @Kernel(workgroup = 256)
  static void relax(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int width) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      int x = i % width;
      if (x == 0 || x == width - 1 || i < width || i + width >= out.length) {
        out[i] = in[i];
      } else {
        out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
      }
    }
  }
}
