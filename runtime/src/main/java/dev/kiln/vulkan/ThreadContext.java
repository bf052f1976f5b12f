package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.NumericType;
import java.nio.LongBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferAllocateInfo;
import org.lwjgl.vulkan.VkCommandPoolCreateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkFenceCreateInfo;

/**
 * What one thread records and waits with: its own command pool and buffer, fence, fault buffer,
 * timestamps and scratch buffers, so that threads share only the queue, and submit one at a time.
 */
final class ThreadContext {
  final long commandPool;
  final VkCommandBuffer commands;
  final long fence;
  final LaunchFaults faults;
  final GpuTimer timer;
  /** Buffers of this thread's launches on Java arrays, for the next ones. */
  final ScratchBuffers scratch = new ScratchBuffers();
  private long descriptorPool;
  private int descriptorPoolBuffers = -1;

  ThreadContext(VulkanBackend backend) {
    VkDevice device = backend.device();
    commandPool = createCommandPool(device, backend.queueFamily());
    commands = allocateCommandBuffer(device, commandPool);
    fence = createFence(device);
    faults = new LaunchFaults(backend.staging(NumericType.INT, LaunchFaults.WORDS));
    timer = GpuTimer.create(device, backend.physical());
  }

  /**
   * The thread's descriptor pool, holding one set for a kernel of {@code buffers} buffers; reset
   * after each launch rather than made anew, and grown when a kernel needs more.
   */
  long descriptorPool(VulkanBackend backend, MemoryStack stack, int buffers) {
    if (buffers > descriptorPoolBuffers) {
      if (descriptorPool != VK_NULL_HANDLE) {
        vkDestroyDescriptorPool(backend.device(), descriptorPool, null);
      }
      descriptorPool = backend.createDescriptorPool(stack, buffers);
      descriptorPoolBuffers = buffers;
    }
    return descriptorPool;
  }

  /** One primary command buffer from {@code pool}. */
  static VkCommandBuffer allocateCommandBuffer(VkDevice device, long pool) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer pointer = stack.mallocPointer(1);
      Vk.check(vkAllocateCommandBuffers(device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
          .commandPool(pool).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1), pointer),
          "vkAllocateCommandBuffers");
      return new VkCommandBuffer(pointer.get(0), device);
    }
  }

  /** An unsignaled fence. */
  static long createFence(VkDevice device) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      LongBuffer handle = stack.mallocLong(1);
      Vk.check(vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, handle), "vkCreateFence");
      return handle.get(0);
    }
  }

  static long createCommandPool(VkDevice device, int queueFamily) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      LongBuffer handle = stack.mallocLong(1);
      Vk.check(vkCreateCommandPool(device, VkCommandPoolCreateInfo.calloc(stack).sType$Default()
          .flags(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT).queueFamilyIndex(queueFamily), null, handle),
          "vkCreateCommandPool");
      return handle.get(0);
    }
  }

  void destroy(VkDevice device) {
    scratch.free();
    if (descriptorPool != VK_NULL_HANDLE) {
      vkDestroyDescriptorPool(device, descriptorPool, null);
    }
    faults.buffer().close();
    timer.destroy(device);
    vkDestroyFence(device, fence, null);
    vkDestroyCommandPool(device, commandPool, null);
  }
}
