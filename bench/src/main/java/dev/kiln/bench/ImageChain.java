package dev.kiln.bench;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/**
 * A user's image pipeline over interleaved RGB floats: exposure, gamma ({@code Gpu.pow}, the arm
 * that made the fused group slower than its arms on the CPU backend), clamping and quantizing to
 * 8-bit values, each arm its own kernel and the four fused as {@code image}.
 */
public final class ImageChain {
  private ImageChain() {}

  @Kernel(workgroup = 256)
  @FuseGroup("image")
  static void exposure(float[] rgb, float gain) {
    int i = Gpu.globalId(0);
    if (i < rgb.length) {
      rgb[i] = rgb[i] * gain;
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("image")
  static void gamma(float[] rgb, float exponent) {
    int i = Gpu.globalId(0);
    if (i < rgb.length) {
      rgb[i] = Gpu.pow(rgb[i], exponent);
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("image")
  static void clamp(float[] rgb) {
    int i = Gpu.globalId(0);
    if (i < rgb.length) {
      rgb[i] = Math.min(Math.max(rgb[i], 0f), 1f);
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("image")
  static void quantize(@Buffer(Access.READ) float[] rgb, @Buffer(Access.WRITE) int[] bytes) {
    int i = Gpu.globalId(0);
    if (i < bytes.length) {
      bytes[i] = (int) (rgb[i] * 255f + 0.5f);
    }
  }
}
