package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.abi.NumericType;
import org.junit.jupiter.api.Test;

/** Both buffer placements move data both ways: mapped, and device-local through staging copies. */
class VulkanBufferTest {
  @Test
  void deviceLocalBuffersRoundTripThroughStaging() {
    VulkanBackend backend = TestBackends.open(Boolean.getBoolean("kiln.validation"));
    try (VulkanBuffer buffer =
        new VulkanBuffer(backend, NumericType.LONG, 1001, VulkanBuffer.Placement.DEVICE)) {
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
    try (VulkanBuffer buffer =
        new VulkanBuffer(backend, NumericType.FLOAT, 7, VulkanBuffer.Placement.MAPPED)) {
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

  @Test
  void subRangesMoveThroughBothPlacements() {
    VulkanBackend backend = TestBackends.open(Boolean.getBoolean("kiln.validation"));
    try {
      for (VulkanBuffer.Placement placement :
          new VulkanBuffer.Placement[] {
            VulkanBuffer.Placement.MAPPED, VulkanBuffer.Placement.DEVICE
          }) {
        try (VulkanBuffer buffer = new VulkanBuffer(backend, NumericType.INT, 10, placement)) {
          buffer.clear();
          buffer.write(new int[] {1, 2, 3, 4, 5}, 1, 6, 3); // elements 6..8 = 2, 3, 4
          int[] all = new int[10];
          buffer.read(all);
          assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0, 2, 3, 4, 0}, all, placement.toString());
          int[] part = {-1, -1, -1, -1};
          buffer.read(part, 1, 7, 2); // elements 7..8 into part[1..2]
          assertArrayEquals(new int[] {-1, 3, 4, -1}, part, placement.toString());
        }
      }
    } finally {
      backend.close();
    }
  }
}
