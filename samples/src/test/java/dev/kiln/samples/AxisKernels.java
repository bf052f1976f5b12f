package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Kernels of one-dimensional workgroups that read y or z, as grid-stride ports of CUDA and
 * TornadoVM code do: their launchers take grids ({@link GridKernelsTest}).
 */
final class AxisKernels {
  private AxisKernels() {}

  /** Scales rows {@code globalId(1)}, then every {@code numWorkgroups(1)}-th row after it. */
  @Kernel(workgroup = {64})
  static void scaleRows(@Buffer(Access.READ) float[] in, float[] out, int width, int rows, float s) {
    int column = Gpu.globalId(0);
    for (int row = Gpu.globalId(1); row < rows; row += Gpu.numWorkgroups(1)) {
      if (column < width) {
        out[row * width + column] = in[row * width + column] * s;
      }
    }
  }

  /** Writes {@code channel + x / 2} to element x of each channel, the channel read by a helper. */
  @Kernel(workgroup = {32})
  static void channels(float[] out, int width, int channels) {
    int x = Gpu.globalId(0);
    int c = channel();
    if (x < width && c < channels) {
      out[c * width + x] = c + x * 0.5f;
    }
  }

  private static int channel() {
    return Gpu.globalId(2);
  }

  /** Reads x only: its launcher keeps its count. */
  @Kernel(workgroup = {64})
  static void negate(float[] data) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = -data[i];
    }
  }
}
