package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * Kernels whose names and parameters could clash in the generated launcher: names that differ
 * only in case or underscores, parameters named like the launcher's own constants and parameters,
 * and an unchecked {@code throws} clause. Their launcher must compile.
 */
class Names {
  @Kernel
  static void k(float[] d) {
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = d[i] + 1f;
    }
  }

  @Kernel
  static void K(float[] d) {
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = d[i] * 2f;
    }
  }

  @Kernel
  static void fooBar(int[] d) {
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = d[i] + 3;
    }
  }

  @Kernel
  static void foo_bar(int[] d) {
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = d[i] - 3;
    }
  }

  @Kernel
  static void scale(float SCALE, float K, float[] FOO_BAR, float[] device, int count) {
    int i = Gpu.globalId(0);
    if (i < FOO_BAR.length && i < device.length) {
      device[i] = FOO_BAR[i] * SCALE + K + count;
    }
  }

  @Kernel
  static void declaresUnchecked(float[] d) throws IllegalStateException {
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = 0f;
    }
  }
}
