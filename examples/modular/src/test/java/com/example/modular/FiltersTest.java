package com.example.modular;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Device;
import dev.kiln.IntArray;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kiln in a named module: the kernels run on the CPU backend (through their CPU twins) and on
 * Vulkan, with nothing of the module exported or opened to Kiln. That the module compiled at all
 * shows its launchers leave out {@code @Generated}, which it cannot see.
 */
class FiltersTest {
  private static final int N = 10_007;

  private static Device open(String selector) {
    try {
      return Device.open(selector);
    } catch (IllegalStateException e) {
      Assumptions.abort("no device '" + selector + "': " + e.getMessage());
      throw e;
    }
  }

  @Test
  void theKernelsAndKilnAreNamedModules() {
    assertEquals("com.example.modular", Filters.class.getModule().getName());
    assertEquals("dev.kiln.runtime", Device.class.getModule().getName());
  }

  @ParameterizedTest(name = "device \"{0}\"")
  @ValueSource(strings = {"cpu", "vulkan"})
  void aBarrierKernelAndAFusedGroupGiveWhatJavaGives(String selector) {
    Random random = new Random(7);
    int[] in = random.ints(N, -1000, 1000).toArray();
    int[] expectedSums = new int[N];
    for (int i = 0; i < N; i++) {
      int first = i / 64 * 64;
      for (int k = first; k < Math.min(first + 64, N); k++) {
        expectedSums[i] += in[k];
      }
    }
    float[] values = new float[N];
    for (int i = 0; i < N; i++) {
      values[i] = random.nextFloat();
    }
    float[] expectedValues = values.clone();
    for (int i = 0; i < N; i++) {
      expectedValues[i] = expectedValues[i] * 1.5f + 0.25f;
    }
    try (Device device = open(selector); IntArray deviceIn = device.upload(in); IntArray sums = device.ints(N)) {
      FiltersKernels.groupSums(device, N, deviceIn, sums);
      assertArrayEquals(expectedSums, sums.toArray());
      FiltersKernels.scaleThenShift(device, N, values, 1.5f, 0.25f);
      assertArrayEquals(expectedValues, values);
    }
  }

  @Test
  void theCpuTwinRunsAndNamesTheFaultingAccess() {
    try (Device device = open("cpu")) {
      int[] out = new int[100];
      // the twin's message names buffer, kernel and line: the kernel method's own exception would not
      RuntimeException fault = assertThrows(RuntimeException.class, () -> FiltersKernels.pastTheEnd(device, 100, out));
      assertEquals("Index 100 out of bounds for length 100 of buffer 'out' in kernel"
          + " com.example.modular.Filters#pastTheEnd (line 56)", fault.getMessage());
    }
  }
}
