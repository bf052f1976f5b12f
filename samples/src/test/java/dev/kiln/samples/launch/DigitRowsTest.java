package dev.kiln.samples.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Device;
import dev.kiln.samples.testing.BothDevices;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A kernel whose rows come from the division and remainder of the global id ({@code
 * RowMajor.headRows}, llm.c's softmax shape) compiles without kiln.race.update (samples compile with
 * warnings as errors), gives Java's bits on both devices at sizes that are no multiple of its
 * workgroup, and keeps the bounds its proof needs: a head count below 1 is refused.
 */
class DigitRowsTest extends BothDevices {
  @ParameterizedTest(name = "b {0}, t {1}, nh {2}")
  @CsvSource({"1, 1, 1", "2, 9, 3", "3, 17, 5", "1, 33, 2"})
  void eachRowIsScaledOnceAsInJava(int b, int t, int nh) {
    int rows = b * t * nh;
    compare("headRows", rows, random -> new Object[] {floats(random, rows * t), floats(random, rows), b, t, nh},
        (device, a) -> RowMajorKernels.headRows(device, rows, (float[]) a[0], (float[]) a[1], b, t, nh));
  }

  @Test
  void aHeadCountBelowOneIsRefused() {
    for (Device device : vulkan == null ? List.of(cpu) : List.of(cpu, vulkan)) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> RowMajorKernels.headRows(device, 4, new float[16], new float[4], 2, 2, 0));
      assertEquals("dev.kiln.samples.launch.RowMajor#headRows: this launch breaks (nh - 1) ≥ 0 (here 1); Kiln needs it"
          + " to prove that the update of att on line 40 is each invocation's own element, and past it indices wrap or"
          + " other invocations reach the same elements. Fix: launch a grid that keeps the bound, or split the work into"
          + " launches that do", refused.getMessage());
    }
  }

  private static float[] floats(Random random, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextFloat() * 4f - 2f;
    }
    return values;
  }
}
