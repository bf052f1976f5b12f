package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/**
 * Developing a linear image for display: exposure, a tone curve, clamping, and quantizing to
 * 8-bit values (one per int). Four kernels, each useful alone; as the group {@code develop} they
 * run as one dispatch that reads and writes every pixel once instead of four times. Every arm
 * touches only its own pixel, so the fusion needs no barrier.
 */
public final class PostProcess {
  private PostProcess() {}

  @Kernel(workgroup = 256)
  @FuseGroup("develop")
  static void exposure(float[] pixels, float gain) {
    int i = Gpu.globalId(0);
    if (i < pixels.length) {
      pixels[i] = pixels[i] * gain;
    }
  }

  /** Reinhard's curve with a white point: {@code x (1 + x / white²) / (1 + x)}. */
  @Kernel(workgroup = 256)
  @FuseGroup("develop")
  static void toneCurve(float[] pixels, float white) {
    int i = Gpu.globalId(0);
    if (i < pixels.length) {
      float x = pixels[i];
      pixels[i] = x * (1f + x / (white * white)) / (1f + x);
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("develop")
  static void clamp(float[] pixels) {
    int i = Gpu.globalId(0);
    if (i < pixels.length) {
      pixels[i] = Math.min(Math.max(pixels[i], 0f), 1f);
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("develop")
  static void quantize(@Buffer(Access.READ) float[] pixels, @Buffer(Access.WRITE) int[] bytes) {
    int i = Gpu.globalId(0);
    if (i < bytes.length) {
      bytes[i] = (int) (pixels[i] * 255f + 0.5f);
    }
  }
}
