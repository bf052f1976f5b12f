package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.samples.SaxpyKernels;
import dev.kiln.vulkan.VulkanBackend;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * 10 000 batches of real launches, 10 000 single launches and 10 000 launches on Java arrays leave
 * the Vulkan device with the recorders and buffers it had after the first of each: nothing leaks,
 * and the results are still right. (In package {@code dev.kiln} to reach the device's backend.)
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
      VulkanBackend backend = (VulkanBackend) device.internalBackend();
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
      int[] settled = backend.resourceCounts();
      for (int i = 1; i < 10_000; i++) {
        round.run();
      }
      assertArrayEquals(settled, backend.resourceCounts(), "idle recorders, open batches, open buffers");
      float[] expected = new float[N];
      Arrays.fill(expected, 30_000f);
      assertArrayEquals(expected, y.toArray());
      Arrays.fill(expected, 10_000f);
      assertArrayEquals(expected, javaY);
      assertEquals(0, settled[1], "no batch left open");
    }
  }

  private static float[] ones() {
    float[] ones = new float[N];
    Arrays.fill(ones, 1f);
    return ones;
  }
}
