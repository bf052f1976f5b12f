package dev.kiln.samples.semantics;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Java's float16 conversions in kernels, for {@link HalfConversionTest}. */
final class HalfKernels {
  private HalfKernels() {}

  /** Each float to its binary16 bits, and those back to a float. */
  @Kernel
  static void roundTrip(float[] values, short[] halves, float[] back) {
    int i = Gpu.globalId(0);
    if (i < values.length && i < halves.length && i < back.length) {
      short h = Float.floatToFloat16(values[i]);
      halves[i] = h;
      back[i] = Float.float16ToFloat(h);
    }
  }

  /** Each binary16 bit pattern to its float. */
  @Kernel
  static void widen(short[] halves, float[] values) {
    int i = Gpu.globalId(0);
    if (i < halves.length && i < values.length) {
      values[i] = Float.float16ToFloat(halves[i]);
    }
  }

  /** Each binary16 bit pattern to its value for arithmetic ({@code Gpu.float16ToFloat}). */
  @Kernel
  static void widenForArithmetic(short[] halves, float[] values) {
    int i = Gpu.globalId(0);
    if (i < halves.length && i < values.length) {
      values[i] = Gpu.float16ToFloat(halves[i]);
    }
  }
}
