package dev.kiln.samples;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.function.BiConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kernels that meet known driver bugs, each against Java on the Vulkan device. A bug Kiln cannot
 * avoid by a cheap, exact change of the code it emits is listed in README ("Known driver gaps") and
 * skipped here on that driver, with the reason; on every other driver it must give Java's bits.
 */
class DriverGapsTest extends BothDevices {
  private static final int N = 1001;

  private static boolean lavapipe() {
    return vulkan.name().contains("llvmpipe");
  }

  private static float[] specials() {
    float[] x = Bits.randomFloats(new java.util.Random(5), N, 100f);
    // no subnormals: devices may flush them (README), a gap of its own
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
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) computes 0f - x as -x, so -0f for +0f (README)");
        compareFloats(kernel, (device, a) -> GapKernelsKernels.zeroMinus(device, N, a[0], a[1]));
      }
      case "selfMinus" -> {
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) gives -0f for x - x where x is -0f (README)");
        compareFloats(kernel, (device, a) -> GapKernelsKernels.selfMinus(device, N, a[0], a[1]));
      }
      case "divideByVisibleZero" -> {
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) drops the store of x / (0f * s) instead of writing NaN or"
            + " an infinity (README)");
        compareFloats(kernel, (device, a) -> GapKernelsKernels.divideByVisibleZero(device, N, a[0], a[1], 3f));
      }
      default -> {
        assumeFalse(lavapipe(), "lavapipe (Mesa 22.3) folds x * 0f + (-0f) to -0f, losing NaN and the sign of"
            + " zero (README)");
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
}
