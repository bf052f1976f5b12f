package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.Device;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The subgroup reduction sample sums exactly (ints wrap alike) on both devices. */
class ReductionTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 256, 257, 100_003})
  void sumsLikeJava(int n) {
    int[] values = Bits.randomInts(new Random(n), n);
    for (Device device : new Device[] {cpu, vulkan}) {
      int[] total = new int[1];
      ReductionKernels.sum(device, n, values, total);
      assertEquals(Arrays.stream(values).sum(), total[0], "on " + device.backend());
    }
  }
}
