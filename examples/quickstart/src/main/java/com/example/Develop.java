package com.example;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/** A kernel, and a fuse group of two arms that run as one dispatch. */
public final class Develop {
  private Develop() {}

  /** {@code y = a * x + y}. */
  @Kernel(workgroup = 256)
  static void saxpy(float a, @Buffer(Access.READ) float[] x, float[] y) {
    int i = Gpu.globalId(0);
    if (i < y.length) {
      y[i] = a * x[i] + y[i];
    }
  }

  /** Multiplies each pixel by {@code gain}; the first arm of {@code develop}. */
  @Kernel(workgroup = 256)
  @FuseGroup("develop")
  static void expose(float[] pixels, float gain) {
    int i = Gpu.globalId(0);
    if (i < pixels.length) {
      pixels[i] = pixels[i] * gain;
    }
  }

  /** Clamps each pixel to [0, 1]; the second arm of {@code develop}. */
  @Kernel(workgroup = 256)
  @FuseGroup("develop")
  static void clamp(float[] pixels) {
    int i = Gpu.globalId(0);
    if (i < pixels.length) {
      pixels[i] = Math.min(Math.max(pixels[i], 0f), 1f);
    }
  }
}
