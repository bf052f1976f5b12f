package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.NumericType;
import org.junit.jupiter.api.Test;

/** Both buffer placements move data both ways: mapped, and device-local through staging copies. */
class VulkanBufferTest {
  @Test
  void deviceLocalBuffersRoundTripThroughStaging() {
    VulkanBackend backend = TestBackends.open(Boolean.getBoolean("kiln.validation"));
    try (VulkanBuffer buffer = new VulkanBuffer(backend, NumericType.LONG, 1001, VulkanBuffer.Placement.DEVICE)) {
      assertFalse(buffer.isMapped());
      long[] values = new java.util.Random(1).longs(1001).toArray();
      buffer.write(values);
      long[] back = new long[1001];
      buffer.read(back);
      assertArrayEquals(values, back);
      buffer.clear();
      buffer.read(back);
      assertArrayEquals(new long[1001], back);
    } finally {
      backend.close();
    }
  }

  @Test
  void mappedBuffersRoundTripDirectly() {
    VulkanBackend backend = TestBackends.open(Boolean.getBoolean("kiln.validation"));
    try (VulkanBuffer buffer = new VulkanBuffer(backend, NumericType.FLOAT, 7, VulkanBuffer.Placement.MAPPED)) {
      assertTrue(buffer.isMapped());
      float[] values = {1f, -0f, Float.NaN, 3e38f, 5f, 6f, 7f};
      buffer.write(values);
      float[] back = new float[7];
      buffer.read(back);
      assertArrayEquals(values, back);
    } finally {
      backend.close();
    }
  }
}
