package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import java.nio.LongBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkQueryPoolCreateInfo;

/** Two timestamps around a launch's or a batch's dispatches, for the GPU time they took. */
final class GpuTimer {
  private final long pool;
  private final long validMask;
  private final double nanosPerTick;

  /** Where the two timestamps are read to; made once. */
  private final LongBuffer ticks = MemoryUtil.memAllocLong(2);

  private GpuTimer(long pool, int validBits, float nanosPerTick) {
    this.pool = pool;
    this.validMask = validBits >= 64 ? -1L : (1L << validBits) - 1;
    this.nanosPerTick = nanosPerTick;
  }

  /** A timer, or one that times nothing where the queue has no timestamps. */
  static GpuTimer create(VkDevice device, PhysicalDevice physical) {
    if (physical.timestampBits() == 0) {
      return new GpuTimer(VK_NULL_HANDLE, 0, 0);
    }
    try (MemoryStack stack = MemoryStack.stackPush()) {
      LongBuffer pool = stack.mallocLong(1);
      Vk.check(
          vkCreateQueryPool(
              device,
              VkQueryPoolCreateInfo.calloc(stack)
                  .sType$Default()
                  .queryType(VK_QUERY_TYPE_TIMESTAMP)
                  .queryCount(2),
              null,
              pool),
          "vkCreateQueryPool");
      return new GpuTimer(pool.get(0), physical.timestampBits(), physical.timestampPeriod());
    }
  }

  void start(VkCommandBuffer commands) {
    if (pool != VK_NULL_HANDLE) {
      vkCmdResetQueryPool(commands, pool, 0, 2);
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
    }
  }

  void stop(VkCommandBuffer commands) {
    if (pool != VK_NULL_HANDLE) {
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
    }
  }

  /**
   * Nanoseconds between the two timestamps of the last launch, which has completed; -1 without
   * timestamps.
   */
  long elapsedNanos(VkDevice device) {
    if (pool == VK_NULL_HANDLE) {
      return -1;
    }
    Vk.check(
        vkGetQueryPoolResults(device, pool, 0, 2, ticks, Long.BYTES, VK_QUERY_RESULT_64_BIT),
        "vkGetQueryPoolResults");
    long elapsed = ((ticks.get(1) & validMask) - (ticks.get(0) & validMask)) & validMask;
    return Math.round(elapsed * nanosPerTick);
  }

  void destroy(VkDevice device) {
    MemoryUtil.memFree(ticks);
    if (pool != VK_NULL_HANDLE) {
      vkDestroyQueryPool(device, pool, null);
    }
  }
}
