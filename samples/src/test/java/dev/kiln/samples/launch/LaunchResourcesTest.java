package dev.kiln.samples.launch;

import dev.kiln.samples.SaxpyKernels;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceResources;
import dev.kiln.FloatArray;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * 10 000 batches of real launches, 10 000 single launches and 10 000 launches on Java arrays leave
 * the Vulkan device with the recorders and buffers it had after the first of each: nothing leaks,
 * and the results are still right, as {@link Device#resources()} counts them.
 */
class LaunchResourcesTest {
  private static final int N = 333;

  @Test
  void thousandsOfLaunchesAndBatchesLeakNothing() {
    Device device;
    try {
      device = Device.open("vulkan");
    } catch (IllegalStateException e) {
      assumeTrue(!Boolean.getBoolean("kiln.noSkips"), "kiln.noSkips=true but no Vulkan device: " + e.getMessage());
      org.junit.jupiter.api.Assumptions.abort("no Vulkan device: " + e.getMessage());
      return;
    }
    try (device; FloatArray x = device.upload(ones()); FloatArray y = device.floats(N)) {
      float[] javaY = new float[N];
      Runnable round = () -> {
        try (Batch batch = device.batch()) {
          SaxpyKernels.saxpy(batch, N, 1f, x, y);
          SaxpyKernels.saxpy(batch, N, 1f, x, y);
        }
        try (Batch unsubmitted = device.batch()) {
          unsubmitted.submitAsync().join();
        }
        SaxpyKernels.saxpy(device, N, 1f, x, y);
        SaxpyKernels.saxpy(device, N, 1f, ones(), javaY);
      };
      round.run();
      DeviceResources settled = device.resources();
      for (int i = 1; i < 10_000; i++) {
        round.run();
      }
      assertEquals(settled, device.resources());
      float[] expected = new float[N];
      Arrays.fill(expected, 30_000f);
      assertArrayEquals(expected, y.toArray());
      Arrays.fill(expected, 10_000f);
      assertArrayEquals(expected, javaY);
      assertEquals(0, settled.openBatches(), "no batch left open");
    }
  }

  private static float[] ones() {
    float[] ones = new float[N];
    Arrays.fill(ones, 1f);
    return ones;
  }
}
