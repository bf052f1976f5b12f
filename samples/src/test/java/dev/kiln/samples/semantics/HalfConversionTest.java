package dev.kiln.samples.semantics;

import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Float.floatToFloat16} and {@code Float.float16ToFloat} in kernels give the JDK's bits on
 * the kernel methods, the CPU twins and Vulkan: every binary16 pattern widened, and floats near
 * each rounding boundary, subnormals, infinities and NaNs with payloads narrowed and back.
 */
class HalfConversionTest extends BothDevices {
  /** All 65,536 bit patterns. */
  @Test
  void everyHalfWidens() {
    short[] halves = new short[1 << 16];
    float[] expected = new float[halves.length];
    for (int h = 0; h < halves.length; h++) {
      halves[h] = (short) h;
      expected[h] = Float.float16ToFloat((short) h);
    }
    compare("float16ToFloat", halves.length, random -> new Object[] {halves.clone(), new float[halves.length]},
        (device, args) -> HalfKernelsKernels.widen(device, halves.length, (short[]) args[0], (float[]) args[1]));
    // compare() takes every NaN for every other: the NaNs' own bits, raw, on each device
    for (dev.kiln.Device device : java.util.List.of(cpuMethods, cpu, vulkan)) {
      float[] widened = new float[halves.length];
      HalfKernelsKernels.widen(device, halves.length, halves, widened);
      for (int h = 0; h < halves.length; h++) {
        assertEquals(Float.floatToRawIntBits(expected[h]), Float.floatToRawIntBits(widened[h]), "half " + h + " on "
            + device.name());
      }
    }
  }

  /**
   * All 65,536 bit patterns through {@code Gpu.float16ToFloat}: Java's bits but for a NaN's, which
   * stays a NaN (the device's conversion where it keeps binary16 subnormals, integer operations
   * elsewhere: lavapipe takes those, the CPU backend the JDK's).
   */
  @Test
  void everyHalfWidensForArithmetic() {
    short[] halves = new short[1 << 16];
    for (int h = 0; h < halves.length; h++) {
      halves[h] = (short) h;
    }
    for (dev.kiln.Device device : java.util.List.of(cpuMethods, cpu, vulkan)) {
      float[] widened = new float[halves.length];
      HalfKernelsKernels.widenForArithmetic(device, halves.length, halves, widened);
      for (int h = 0; h < halves.length; h++) {
        float expected = Float.float16ToFloat((short) h);
        if (Float.isNaN(expected)) {
          assertTrue(Float.isNaN(widened[h]), "half " + h + " on " + device.name() + ": " + widened[h]);
        } else {
          assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(widened[h]),
              "half " + h + " on " + device.name());
        }
      }
    }
  }

  /** Random floats of every exponent, each binary16 value's neighbours and midpoints, and the specials. */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 70001})
  void floatsNarrowAndWiden(int n) {
    compare("floatToFloat16", n, random -> new Object[] {floats(random, n), new short[n], new float[n]},
        (device, args) -> HalfKernelsKernels.roundTrip(device, n, (float[]) args[0], (short[]) args[1],
            (float[]) args[2]));
    float[] values = floats(new Random(n), n);
    short[] halves = new short[n];
    float[] back = new float[n];
    HalfKernelsKernels.roundTrip(cpu, n, values, halves, back);
    for (int i = 0; i < n; i++) {
      short expected = Float.floatToFloat16(values[i]);
      assertEquals(expected, halves[i], "floatToFloat16(" + values[i] + ", bits 0x"
          + Integer.toHexString(Float.floatToRawIntBits(values[i])) + ")");
      assertEquals(Float.floatToRawIntBits(Float.float16ToFloat(expected)), Float.floatToRawIntBits(back[i]),
          "float16ToFloat of " + expected);
    }
  }

  /**
   * Floats where narrowing is hard: a binary16 value, a float step either side of it, the midpoint
   * to the next and a float step either side of that, in every binary16 binade and below (to 2^-26)
   * and above (past 65520); the specials; and random bits.
   */
  private static float[] floats(Random random, int n) {
    float[] values = new float[n];
    float[] specials = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 0x1p-24f, 0x1p-25f, 0x1.8p-25f,
        0x1p-26f, 0x1p-14f, 65504f, 65519.99f, 65520f, 65536f, Float.MAX_VALUE, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, Float.NaN, Float.intBitsToFloat(0x7fc0_1234), Float.intBitsToFloat(0xff80_0001),
        Float.intBitsToFloat(0x7fbf_ffff), Float.intBitsToFloat(0x7f80_2000)};
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(4);
      float value;
      if (i < specials.length) {
        value = specials[i];
      } else if (kind == 0) {
        value = Float.intBitsToFloat(random.nextInt());
      } else {
        float half = Float.float16ToFloat((short) random.nextInt(0x7c00));
        float next = Float.float16ToFloat((short) (Float.floatToFloat16(half) + 1));
        float mid = half + (next - half) / 2;
        float[] near = {half, Math.nextUp(half), Math.nextDown(half), mid, Math.nextUp(mid), Math.nextDown(mid)};
        value = near[random.nextInt(near.length)] * (kind == 1 ? 1 : -1);
      }
      values[i] = value;
    }
    return values;
  }
}
