package dev.kiln.samples.drivers;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.samples.testing.FlushingTwin;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.function.BiConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kernels that meet known driver bugs, each against Java on the Vulkan device. A bug Kiln cannot
 * avoid by a cheap, exact change of the code it emits is listed in docs/DRIVER-GAPS.md and
 * skipped here on that driver, with the reason; on every other driver it must give Java's bits.
 */
class DriverGapsTest extends BothDevices {
  private static final int N = 1001;

  private static boolean lavapipe() {
    return vulkan.name().contains("llvmpipe");
  }

  private static float[] specials() {
    float[] x = Bits.randomFloats(new java.util.Random(5), N, 100f);
    // no subnormals: devices may flush them (docs/DRIVER-GAPS.md), a gap of its own
    float[] special = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_NORMAL, -1f};
    System.arraycopy(special, 0, x, 0, special.length);
    return x;
  }

  private static void compareFloats(String what, BiConsumer<dev.kiln.Device, float[][]> launch) {
    float[] x = specials();
    float[][] onCpu = {x.clone(), new float[N]};
    float[][] onVulkan = {x.clone(), new float[N]};
    launch.accept(cpu, onCpu);
    launch.accept(vulkan, onVulkan);
    Bits.assertSameBits(what, onCpu[1], onVulkan[1]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"zeroMinus", "selfMinus", "divideByVisibleZero", "constantZero"})
  void floatGaps(String kernel) {
    switch (kernel) {
      case "zeroMinus" -> {
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) computes 0f - x as -x, so -0f for +0f");
        compareFloats(kernel, (device, a) -> GapKernelsKernels.zeroMinus(device, N, a[0], a[1]));
      }
      case "selfMinus" -> {
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) gives -0f for x - x where x is -0f");
        compareFloats(kernel, (device, a) -> GapKernelsKernels.selfMinus(device, N, a[0], a[1]));
      }
      case "divideByVisibleZero" -> {
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) drops the store of x / (0f * s) instead of writing NaN or"
            + " an infinity");
        compareFloats(kernel, (device, a) -> GapKernelsKernels.divideByVisibleZero(device, N, a[0], a[1], 3f));
      }
      default -> {
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) folds x * 0f + (-0f) to -0f, losing NaN and the sign of"
            + " zero");
        compareFloats(kernel, (device, a) -> GapKernelsKernels.constantZero(device, N, a[0], a[1]));
      }
    }
  }

  /**
   * Kiln asks drivers to preserve subnormals (DenormPreserve) where they offer it: there a kernel
   * gives Java's bits. A driver that does not offer it (NVIDIA's and lavapipe's, for float) may
   * flush them to zero: it must give Java's bits or exactly those of the kernel's
   * {@link FlushingTwin}.
   */
  @org.junit.jupiter.api.Test
  void subnormalsAsJavaOrFlushed() throws Exception {
    java.util.Random random = new java.util.Random(7);
    float[] x = Bits.randomFloats(random, N, 100f);
    float[] y = Bits.randomFloats(random, N, 100f);
    for (int i = 0; i < N; i += 5) {
      y[i] *= 0x1p50f; // a normal divisor
    }
    float[] asJava = new float[N];
    float[] flushed = new float[N];
    float[] onVulkan = new float[N];
    GapKernelsKernels.subnormals(cpu, N, x, y, asJava);
    GapKernelsKernels.subnormals(vulkan, N, x, y, onVulkan);
    java.net.URL classes = GapKernels.class.getProtectionDomain().getCodeSource().getLocation();
    FlushingTwin.loader(classes, GapKernels.class.getName(), getClass().getClassLoader())
        .loadClass(GapKernelsKernels.class.getName())
        .getMethod("subnormals", dev.kiln.Device.class, int.class, float[].class, float[].class, float[].class)
        .invoke(null, cpu, N, x, y, flushed);
    String what = "x * 0x1p-130f and x % (y * 0x1p-130f)";
    if (vulkan.flushesSubnormals() && !java.util.Arrays.equals(asJava, onVulkan)) {
      Bits.assertSameBits(what + ", flushed", flushed, onVulkan);
    } else {
      Bits.assertSameBits(what, asJava, onVulkan);
    }
  }

  /**
   * Each float operation on pairs of subnormals, zeros and normals whose results are subnormal, as
   * a column: on a device that flushes subnormals, each column must be Java's bits or the flush
   * model's ({@link FlushingTwin}: NVIDIA reads subnormal operands as zero and flushes results but
   * for conversions from double, so Kiln's division keeps Java's subnormal quotients). The fuzzer
   * explains differences by that model, so it must hold operation by operation.
   */
  @org.junit.jupiter.api.Test
  void subnormalOperations() throws Exception {
    float[] values = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, 1e-40f, -3e-39f, Float.MIN_NORMAL,
        1.5f * Float.MIN_NORMAL, -1.25f * Float.MIN_NORMAL, 1e-30f, 1e-20f, 1e-19f, 0.5f, -3f, 1e10f, 1e20f, 3e38f};
    int pairs = values.length * values.length;
    float[] x = new float[pairs];
    float[] y = new float[pairs];
    for (int p = 0; p < pairs; p++) {
      x[p] = values[p / values.length];
      y[p] = values[p % values.length];
    }
    float[][] out = new float[3][pairs * GapKernels.OPERATIONS]; // Java, Vulkan, the model
    int[][] tests = new int[3][pairs * GapKernels.TESTS];
    GapKernelsKernels.subnormalOperations(cpu, pairs, x, y, out[0], tests[0]);
    GapKernelsKernels.subnormalOperations(vulkan, pairs, x, y, out[1], tests[1]);
    java.net.URL classes = GapKernels.class.getProtectionDomain().getCodeSource().getLocation();
    FlushingTwin.loader(classes, GapKernels.class.getName(), getClass().getClassLoader())
        .loadClass(GapKernelsKernels.class.getName())
        .getMethod("subnormalOperations", dev.kiln.Device.class, int.class, float[].class, float[].class, float[].class,
            int[].class)
        .invoke(null, cpu, pairs, x, y, out[2], tests[2]);
    java.util.List<String> wrong = new java.util.ArrayList<>();
    for (int column = 0; column < GapKernels.OPERATIONS + GapKernels.TESTS; column++) {
      boolean asJava = true;
      boolean asModel = true;
      String firstFromJava = null;
      String firstFromModel = null;
      for (int p = 0; p < pairs; p++) {
        long[] bits = new long[3];
        for (int r = 0; r < 3; r++) {
          bits[r] = column < GapKernels.OPERATIONS ? Float.floatToIntBits(out[r][p * GapKernels.OPERATIONS + column])
              : tests[r][p * GapKernels.TESTS + column - GapKernels.OPERATIONS];
        }
        asJava &= bits[1] == bits[0];
        asModel &= bits[1] == bits[2];
        String pair = "x " + x[p] + ", y " + y[p] + ": Java " + show(column, bits[0]) + ", the device "
            + show(column, bits[1]) + ", the model " + show(column, bits[2]);
        firstFromJava = firstFromJava == null && bits[1] != bits[0] ? pair : firstFromJava;
        firstFromModel = firstFromModel == null && bits[1] != bits[2] ? pair : firstFromModel;
      }
      if (!asJava && !(vulkan.flushesSubnormals() && asModel)) {
        wrong.add("result " + column + " of GapKernels.subnormalOperations, first unlike Java at " + firstFromJava
            + "; first unlike the model at " + firstFromModel);
      }
    }
    org.junit.jupiter.api.Assertions.assertTrue(wrong.isEmpty(), () -> "neither Java's bits nor the flush model's ("
        + (vulkan.flushesSubnormals() ? "the device flushes" : "the device preserves subnormals") + "):\n"
        + String.join("\n", wrong));
  }

  private static String show(int column, long bits) {
    return column < GapKernels.OPERATIONS ? Float.toString(Float.intBitsToFloat((int) bits)) : Long.toString(bits);
  }

  /** Lavapipe folded this wrongly; Kiln compares in int where the long constant fits, which is exact. */
  @org.junit.jupiter.api.Test
  void intAgainstLongConstant() {
    int[] c = Bits.randomInts(new java.util.Random(6), N);
    int[] special = {-3, -2, -1, 0, Integer.MIN_VALUE, Integer.MAX_VALUE};
    System.arraycopy(special, 0, c, 0, special.length);
    int[] onCpu = new int[N];
    int[] onVulkan = new int[N];
    GapKernelsKernels.intAgainstLong(cpu, N, c, onCpu);
    GapKernelsKernels.intAgainstLong(vulkan, N, c, onVulkan);
    Bits.assertSameBits("c >= -2L", onCpu, onVulkan);
  }

  /**
   * Lavapipe (Mesa 22.3) ends every loop of an invocation once its loop headers have run 65,535
   * times in all, counting each loop's final test, with no error (one loop of 70,000 turns counted
   * 65,535; 100 turns of a 1,000-turn loop, 1,002 header entries each, counted 65,404). Kiln's
   * modules count header entries there and fault past 65,000: the launch throws, naming the kernel
   * and the loop's line, instead of returning a wrong count. Under the threshold the count is
   * Java's on lavapipe too; every other device counts as Java does at any length.
   */
  @org.junit.jupiter.api.Test
  void loopsPastLavapipesLimitFaultThereAndRunToTheEndElsewhere() {
    for (dev.kiln.Device device : new dev.kiln.Device[] {cpu, vulkan}) {
      int[] under = new int[2];
      GapKernelsKernels.loopTurns(device, 1, under, 64_000, 0, 0);
      org.junit.jupiter.api.Assertions.assertEquals(64_000, under[0], device.name());
      int[] single = new int[2]; // the limit is the invocation's, shared by its loops: one launch each
      int[] nested = new int[2];
      if (device == vulkan && lavapipe()) {
        IllegalStateException one = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
            () -> GapKernelsKernels.loopTurns(device, 1, single, 70_000, 0, 0));
        org.junit.jupiter.api.Assertions.assertEquals("a subgroup of kernel dev.kiln.samples.drivers.GapKernels#loopTurns"
            + " entered its loops' headers more than 65000 times (the loop on line 112); this device (lavapipe) ends"
            + " the loops of a subgroup, whose invocations run together, silently after 65,535, so the results would"
            + " be wrong. Fix: run it on another device, or spread the work over more invocations with fewer loop"
            + " turns each", one.getMessage());
        IllegalStateException inner = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
            () -> GapKernelsKernels.loopTurns(device, 1, nested, 0, 100, 1_000));
        org.junit.jupiter.api.Assertions.assertTrue(inner.getMessage().contains("the loop on line 118"),
            inner.getMessage());
      } else {
        GapKernelsKernels.loopTurns(device, 1, single, 70_000, 0, 0);
        GapKernelsKernels.loopTurns(device, 1, nested, 0, 100, 1_000);
        org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {70_000, 100_000},
            new int[] {single[0], nested[1]}, device.name());
      }
    }
  }

  /**
   * Lavapipe counts a SIMD group's loop-header entries, of all its loops together: lanes that each
   * ran one long loop of two are cut by the group's sum. The modules count per subgroup, so that
   * is a fault there too, and a sum under the limit runs to the end.
   */
  @org.junit.jupiter.api.Test
  void loopsOfDifferentLanesCountTogetherOnLavapipe() {
    for (dev.kiln.Device device : new dev.kiln.Device[] {cpu, vulkan}) {
      int[] under = new int[64];
      GapKernelsKernels.alternateLoops(device, 64, under, 30_000, 30_000);
      org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {30_002, 60_001},
          new int[] {under[0], under[1]}, device.name() + ": 30,000 and 30,000 turns");
      int[] over = new int[64];
      if (device == vulkan && lavapipe()) {
        IllegalStateException cut = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
            () -> GapKernelsKernels.alternateLoops(device, 64, over, 40_000, 40_000));
        org.junit.jupiter.api.Assertions.assertTrue(cut.getMessage().contains("the loop on line 141"), cut.getMessage());
      } else {
        GapKernelsKernels.alternateLoops(device, 64, over, 40_000, 40_000);
        org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {40_002, 80_001}, new int[] {over[0], over[1]},
            device.name());
      }
    }
  }
}
