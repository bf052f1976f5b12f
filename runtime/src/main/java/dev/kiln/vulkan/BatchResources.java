package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.NumericType;
import java.nio.LongBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferAllocateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkFenceCreateInfo;

/**
 * What one batch records into and waits with: a command pool and buffer, a fence and a fault
 * buffer. Made once and reused by later batches (see {@link VulkanBackend#acquireBatchResources}):
 * creating them per batch cost most of a batch's time on the H200.
 */
final class BatchResources {
  final long commandPool;
  final VkCommandBuffer commands;
  final long fence;
  final LaunchFaults faults;

  BatchResources(VulkanBackend backend) {
    VkDevice device = backend.device();
    commandPool = ThreadContext.createCommandPool(device, backend.queueFamily());
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer pointer = stack.mallocPointer(1);
      Vk.check(vkAllocateCommandBuffers(device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
          .commandPool(commandPool).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1), pointer),
          "vkAllocateCommandBuffers");
      commands = new VkCommandBuffer(pointer.get(0), device);
      LongBuffer handle = stack.mallocLong(1);
      Vk.check(vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, handle), "vkCreateFence");
      fence = handle.get(0);
    }
    faults = new LaunchFaults(backend.staging(NumericType.INT, LaunchFaults.WORDS));
  }

  /** Ready for the next batch: nothing recorded (the fence is unsignaled once waited for). */
  void reset(VkDevice device) {
    Vk.check(vkResetCommandPool(device, commandPool, 0), "vkResetCommandPool");
  }

  void destroy(VkDevice device) {
    faults.buffer().close();
    vkDestroyFence(device, fence, null);
    vkDestroyCommandPool(device, commandPool, null);
  }
}
