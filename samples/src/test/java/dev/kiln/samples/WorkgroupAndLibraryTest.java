package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.MathOpsKernels;
import corpus.WorkgroupOpsKernels;
import dev.kiln.Device;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Library calls, workgroup memory, barriers and atomics: Vulkan against the CPU backend. */
class WorkgroupAndLibraryTest extends BothDevices {
  /** Floats with the values where Java's rules matter: NaN, signed zeros, infinities, ties. */
  private static float[] floatsWithSpecials(Random random, int n) {
    float[] specials = {Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0.5f, -0.5f, 1.5f,
        -2.5f, 0.49999997f, 8388609f, -1e10f, 3e9f, Float.MAX_VALUE};
    float[] values = Bits.randomFloats(random, n, 1000f);
    for (int i = 0; i < n; i += 3) {
      values[i] = specials[random.nextInt(specials.length)];
    }
    return values;
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void exactLibraryCallsMatchJavaBitForBit(int n) {
    float[][] results = new float[2][];
    int[][] intResults = new int[2][];
    Device[] devices = {cpu, vulkan};
    for (int d = 0; d < 2; d++) {
      Random random = new Random(n);
      float[] a = floatsWithSpecials(random, n);
      float[] b = floatsWithSpecials(random, n);
      int[] p = Bits.randomInts(random, n);
      int[] q = Bits.randomInts(random, n);
      results[d] = new float[8 * n];
      intResults[d] = new int[20 * n];
      MathOpsKernels.exact(devices[d], n, a, b, p, q, results[d], intResults[d]);
    }
    Bits.assertSameBits("exact float results", results[0], results[1]);
    Bits.assertSameBits("exact int results", intResults[0], intResults[1]);
  }

  /** Methods Kiln composes from other operations (reverseBytes, compareUnsigned, nextUp, ulp...). */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void composedLibraryCallsMatchJavaBitForBit(int n) {
    float[][] floats = new float[2][];
    int[][] ints = new int[2][];
    Device[] devices = {cpu, vulkan};
    for (int d = 0; d < 2; d++) {
      Random random = new Random(n);
      float[] x = floatsWithSpecials(random, n);
      float[] y = floatsWithSpecials(random, n);
      for (int i = 1; i < n; i += 7) {
        x[i] = i % 2 == 0 ? Float.MIN_NORMAL : -Float.MAX_VALUE; // edges of nextUp, nextDown and ulp
      }
      int[] a = Bits.randomInts(random, n);
      int[] b = Bits.randomInts(random, n);
      floats[d] = new float[5 * n];
      ints[d] = new int[8 * n];
      MathOpsKernels.composed(devices[d], n, a, b, x, y, ints[d], floats[d]);
    }
    Bits.assertSameBits("composed float results", floats[0], floats[1]);
    Bits.assertSameBits("composed int results", ints[0], ints[1]);
  }

  /** Long and Double methods, bit for bit, with specials among the doubles. */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void longAndDoubleMethodsMatchJavaBitForBit(int n) {
    Device[] devices = {cpu, vulkan};
    Object[][] results = new Object[2][];
    for (int k = 0; k < 2; k++) {
      Random random = new Random(n);
      long[] a = random.longs(n).toArray();
      double[] d = random.doubles(n, -1e6, 1e6).toArray();
      double[] specials = {Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
          vulkan.flushesSubnormals() ? Double.MIN_NORMAL : Double.MIN_VALUE}; // docs/DRIVER-GAPS.md
      for (int i = 0; i < n; i += 3) {
        d[i] = specials[random.nextInt(specials.length)];
        a[i] = i % 2 == 0 ? 0 : Long.MIN_VALUE >> (i & 63);
      }
      results[k] = new Object[] {new int[6 * n], new long[7 * n], new double[3 * n]};
      MathOpsKernels.longsAndDoubles(devices[k], n, a, d, (int[]) results[k][0], (long[]) results[k][1],
          (double[]) results[k][2]);
    }
    for (int r = 0; r < 3; r++) {
      Bits.assertSameBits("long and double results " + r, results[0][r], results[1][r]);
    }
  }

  /**
   * fma on floats, scalb, rint, round, clamp, the double bit methods, the long floorMod and floorDiv
   * and Long's unsigned methods, bit for bit; fma's inputs include sums that a double rounds to a
   * float midpoint, where rounding twice would differ. Results stay out of the subnormal range,
   * which a flushing device may give as zero (docs/DRIVER-GAPS.md).
   */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void composedFloatingAndLongMethodsMatchJavaBitForBit(int n) {
    Device[] devices = {cpu, vulkan};
    Object[][] results = new Object[2][];
    for (int k = 0; k < 2; k++) {
      Random random = new Random(n);
      float[] x = new float[n];
      float[] y = new float[n];
      float[] z = new float[n];
      double[] d = random.doubles(n, -1e6, 1e6).toArray();
      long[] a = random.longs(n).toArray();
      long[] b = random.longs(n).toArray();
      int[] scales = random.ints(n, -300, 301).toArray();
      float[] specials = {Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1f};
      double[] doubleSpecials = {Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
          Double.MAX_VALUE, -0.5, 2.5, 1e19, -3.5};
      for (int i = 0; i < n; i++) {
        x[i] = Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(40) - 20);
        y[i] = Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, random.nextInt(40) - 20);
        z[i] = Math.scalb(random.nextFloat(-1f, 1f), random.nextInt(40) - 20);
        if (i % 4 == 1) { // a product far below the addend's last place: the double sum may be a float midpoint
          int p = random.nextInt(10) + 1;
          int q = random.nextInt(10) + 1;
          x[i] = Math.scalb(1f + (random.nextInt(4) - 2) * 0x1p-23f, -p);
          y[i] = Math.scalb(1f - (random.nextInt(4) - 2) * 0x1p-23f, -q);
          z[i] = Math.scalb(1f + random.nextInt(1 << 23) * 0x1p-23f, 23 - p - q + random.nextInt(3));
        }
        if (i % 5 == 2) {
          x[i] = specials[random.nextInt(specials.length)];
          d[i] = doubleSpecials[random.nextInt(doubleSpecials.length)];
          a[i] = i % 2 == 0 ? Long.MIN_VALUE : -1;
        }
      }
      results[k] = new Object[] {new float[4 * n], new double[7 * n], new long[6 * n], new int[4 * n]};
      MathOpsKernels.exactComposed(devices[k], n, x, y, z, d, a, b, scales, (float[]) results[k][0],
          (double[]) results[k][1], (long[]) results[k][2], (int[]) results[k][3]);
    }
    for (int r = 0; r < 4; r++) {
      Bits.assertSameBits("results " + r, results[0][r], results[1][r]);
    }
  }

  /** Math.clamp's bounds out of order, or NaN: IllegalArgumentException on both backends; equal zeros in Java's order pass. */
  @Test
  void clampRejectsBoundsOutOfOrder() {
    for (Device device : new Device[] {cpu, vulkan}) {
      float[] x = {-2f, 0.5f, 3f, Float.NaN, -0f};
      MathOpsKernels.clampBetween(device, x.length, x, -0f, 0f);
      Bits.assertSameBits("clamped on " + device.backend(), new float[] {-0f, 0f, 0f, Float.NaN, -0f}, x);
      for (float[] bounds : new float[][] {{1f, -1f}, {Float.NaN, 1f}, {0f, -0f}}) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
            () -> MathOpsKernels.clampBetween(device, 5, new float[5], bounds[0], bounds[1]),
            "bounds " + Arrays.toString(bounds) + " on " + device.backend());
        if (device == vulkan) { // on the CPU backend the message is Java's own
          assertEquals("Math.clamp's min is greater than its max, or NaN, in kernel corpus.MathOps#clampBetween",
              thrown.getMessage());
        }
      }
    }
  }

  /**
   * Within Vulkan's precision for these functions (a few ULP, absolute 2^-11 for sin and cos,
   * 4096 ULP for atan2): here at most 1e-3 relative or 1e-3 absolute, on inputs in usual ranges.
   */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 4099})
  void transcendentalFunctionsStayWithinTheirBound(int n) {
    Random random = new Random(n);
    float[] a = new float[n];
    float[] b = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = random.nextFloat(-3.1f, 3.1f);
      b[i] = random.nextFloat(0.01f, 100f);
    }
    float[] expected = new float[12 * n];
    float[] actual = new float[12 * n];
    MathOpsKernels.transcendental(cpu, n, a, b, expected);
    MathOpsKernels.transcendental(vulkan, n, a, b, actual);
    for (int i = 0; i < expected.length; i++) {
      float tolerance = Math.max(1e-3f, 1e-3f * Math.abs(expected[i]));
      assertTrue(Math.abs(expected[i] - actual[i]) <= tolerance,
          "function " + i / n + " at element " + i % n + ": " + actual[i] + " but Java gives " + expected[i]);
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 64, 65, 1000})
  void sharedTilesAndBarriers(int n) {
    float[] in = Bits.randomFloats(new Random(n), n, 10f);
    float[] onCpu = new float[n];
    float[] onVulkan = new float[n];
    WorkgroupOpsKernels.reverseTiles(cpu, n, in, onCpu);
    WorkgroupOpsKernels.reverseTiles(vulkan, n, in, onVulkan);
    Bits.assertSameBits("reversed tiles", onCpu, onVulkan);
    assertEquals(n >= 64 ? in[63] : -1f, onCpu[0]);
  }

  /** Workgroup arrays of every element type, and long atomics on one: methods, twins and Vulkan alike. */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 1000})
  void workgroupArraysOfEveryElementType(int n) {
    compare("workgroup arrays", n, r -> {
      short[] s = new short[n];
      byte[] b = new byte[n];
      char[] c = new char[n];
      boolean[] z = new boolean[n];
      double[] d = new double[n];
      for (int k = 0; k < n; k++) {
        s[k] = (short) r.nextInt();
        b[k] = (byte) r.nextInt();
        c[k] = (char) r.nextInt();
        z[k] = r.nextBoolean();
        d[k] = r.nextDouble(-1e6, 1e6);
      }
      return new Object[] {r.longs(n).toArray(), d, s, b, c, z, new long[(n + 63) / 64]};
    }, (device, a) -> WorkgroupOpsKernels.everyElementType(device, n, (long[]) a[0], (double[]) a[1], (short[]) a[2],
        (byte[]) a[3], (char[]) a[4], (boolean[]) a[5], (long[]) a[6]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 100_003})
  void workgroupSumWithAtomicTotal(int n) {
    int[] in = Bits.randomInts(new Random(n), n);
    int groups = (n + 63) / 64;
    int[][] totals = new int[2][1];
    int[][] perGroup = new int[2][groups];
    WorkgroupOpsKernels.sum(cpu, n, in, totals[0], perGroup[0]);
    WorkgroupOpsKernels.sum(vulkan, n, in, totals[1], perGroup[1]);
    assertEquals(Arrays.stream(in).sum(), totals[0][0]);
    Bits.assertSameBits("totals", totals[0], totals[1]);
    Bits.assertSameBits("per group", perGroup[0], perGroup[1]);
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 4099})
  void everyAtomicOperation(int n) {
    int[] values = Bits.randomInts(new Random(n), n);
    for (Device device : new Device[] {cpu, vulkan}) {
      int[] cells = {0, Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0, 0, 0, 0, 0};
      int[] previous = new int[n];
      WorkgroupOpsKernels.atomics(device, n, values, cells, previous);
      String on = " on " + device.backend();
      assertEquals(Arrays.stream(values).sum(), cells[0], "add" + on);
      assertEquals(Arrays.stream(values).min().orElseThrow(), cells[1], "min" + on);
      assertEquals(Arrays.stream(values).max().orElseThrow(), cells[2], "max" + on);
      assertEquals(Arrays.stream(values).map(v -> v | 0x0f0f0f0f).reduce(-1, (x, y) -> x & y), cells[3], "and" + on);
      assertEquals(Arrays.stream(values).map(v -> v & 0x11111111).reduce(0, (x, y) -> x | y), cells[4], "or" + on);
      assertEquals(Arrays.stream(values).reduce(0, (x, y) -> x ^ y), cells[5], "xor" + on);
      assertEquals(n, cells[6], "count" + on);
      int[] sorted = previous.clone();
      Arrays.sort(sorted);
      assertArrayEquals(IntStream.range(0, n).toArray(), sorted, "previous values of the count" + on);
      assertTrue(cells[7] >= 1 && cells[7] <= n, "compare-exchange winner" + on);
      assertEquals(cells[7], cells[8], "exchange by the winner" + on);
    }
  }

  /** Every atomic on a long[] buffer, with values that need all 64 bits. */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 4099})
  void everyLongAtomicOperation(int n) {
    long[] values = new Random(n).longs(n).toArray();
    for (Device device : new Device[] {cpu, vulkan}) {
      long[] cells = {0, Long.MAX_VALUE, Long.MIN_VALUE, -1, 0, 0, 0, 0, 0};
      long[] previous = new long[n];
      WorkgroupOpsKernels.longAtomics(device, n, values, cells, previous);
      String on = " on " + device.backend();
      assertEquals(Arrays.stream(values).sum(), cells[0], "add" + on);
      assertEquals(Arrays.stream(values).min().orElseThrow(), cells[1], "min" + on);
      assertEquals(Arrays.stream(values).max().orElseThrow(), cells[2], "max" + on);
      assertEquals(Arrays.stream(values).map(v -> v | 0x0f0f0f0f0f0f0f0fL).reduce(-1, (x, y) -> x & y), cells[3], "and" + on);
      assertEquals(Arrays.stream(values).map(v -> v & 0x1111111111111111L).reduce(0, (x, y) -> x | y), cells[4], "or" + on);
      assertEquals(Arrays.stream(values).reduce(0, (x, y) -> x ^ y), cells[5], "xor" + on);
      assertEquals((long) n << 33, cells[6], "count" + on);
      long[] sorted = previous.clone();
      Arrays.sort(sorted);
      assertArrayEquals(java.util.stream.LongStream.range(0, n).toArray(), sorted, "previous values of the count" + on);
      assertTrue(cells[7] >> 40 >= 1 && cells[7] >> 40 <= n && (cells[7] & (1L << 40) - 1) == 0, "compare-exchange winner" + on);
      assertEquals(cells[7], cells[8], "exchange by the winner" + on);
    }
  }

  /** Float atomic adds on a buffer and on workgroup memory; whole numbers, so every order gives one sum. */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void floatAtomicAdds(int n) {
    float[] weights = new float[n];
    Random random = new Random(n);
    for (int i = 0; i < n; i++) {
      weights[i] = random.nextInt(-1000, 1000);
    }
    for (Device device : new Device[] {cpu, vulkan}) {
      float[] totals = new float[2];
      float[] seen = new float[n];
      WorkgroupOpsKernels.floatAtomics(device, n, weights, totals, seen);
      String on = " on " + device.backend();
      double sum = 0;
      for (float w : weights) {
        sum += w;
      }
      assertEquals((float) sum, totals[0], "buffer total" + on);
      assertEquals(n, totals[1], "workgroup counts" + on);
      for (int group = 0; group * 64 < n; group++) {
        int size = Math.min(64, n - group * 64);
        float[] counts = Arrays.copyOfRange(seen, group * 64, group * 64 + size);
        Arrays.sort(counts);
        for (int k = 0; k < size; k++) {
          assertEquals(k, counts[k], "values seen in workgroup " + group + on);
        }
      }
    }
  }
}
