package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Kernels for {@link SettledChecksTest}: accesses in bounds only where the launch's lengths fit its
 * scalars and grid, which the processor cannot prove alone and hands the runtime as launch proofs.
 */
final class SettledKernels {
  private SettledKernels() {}

  /** The 5-point stencil of the benchmarks: {@code in[i ± width]} is in bounds where {@code in.length ≥ width · height}. */
  @Kernel(workgroup = {16, 16})
  static void stencil(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int width, int height) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    if (x < width && y < height) {
      int i = y * width + x;
      if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
      } else {
        out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
      }
    }
  }

  /** Each id's element, shifted: in bounds where the grid and {@code offset} fit the lengths. */
  @Kernel(workgroup = 64)
  static void shifted(@Buffer(Access.READ) int[] in, @Buffer(Access.WRITE) int[] out, int offset) {
    int i = Gpu.globalId(0);
    out[i] = in[i + offset] * 3;
  }
}
