package dev.kiln.bench;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/**
 * The elementwise workloads: copy and saxpy (bandwidth), and the 4-arm chain
 * {@code min(max(x * a + b, lo), hi)} as the fuse group {@code chain}, whose arms also run as
 * separate dispatches. Their GLSL twins are in {@code glsl/} ({@link GlslTwins}). And {@link
 * #zero}, the step a histogram's call records before it counts, for the GLSL twin's batch, and
 * {@link #copyInts}, which gives a sort fresh keys on the device (the GPU kept busy between runs).
 */
final class Elementwise {
  private Elementwise() {}

  @Kernel(workgroup = 256)
  static void copy(@Buffer(Access.READ) float[] from, @Buffer(Access.WRITE) float[] to) {
    int i = Gpu.globalId(0);
    if (i < to.length) {
      to[i] = from[i];
    }
  }

  @Kernel(workgroup = 256)
  static void zero(@Buffer(Access.WRITE) int[] values) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      values[i] = 0;
    }
  }

  @Kernel(workgroup = 256)
  static void copyInts(@Buffer(Access.READ) int[] from, @Buffer(Access.WRITE) int[] to) {
    int i = Gpu.globalId(0);
    if (i < to.length) {
      to[i] = from[i];
    }
  }

  @Kernel(workgroup = 256)
  static void saxpy(float a, @Buffer(Access.READ) float[] x, float[] y) {
    int i = Gpu.globalId(0);
    if (i < y.length) {
      y[i] = a * x[i] + y[i];
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void scale(float[] data, float a) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = data[i] * a;
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void shift(float[] data, float b) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = data[i] + b;
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void floor(float[] data, float lo) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = Math.max(data[i], lo);
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void ceiling(float[] data, float hi) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = Math.min(data[i], hi);
    }
  }
}
