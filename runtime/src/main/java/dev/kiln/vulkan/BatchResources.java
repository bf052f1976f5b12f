package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.NumericType;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkDevice;

/**
 * What one batch records into and waits with: a command pool and buffer, a fence, a fault buffer,
 * and descriptor pools for its launches' sets (in chunks, reset rather than freed). Made once and
 * reused by later batches (see {@link VulkanBackend#acquireBatchResources}): creating them per
 * batch cost most of a batch's time on the H200.
 */
final class BatchResources {
  final long commandPool;
  final VkCommandBuffer commands;
  final long fence;
  final LaunchFaults faults;
  /** Descriptor pools of {@link #SETS_PER_CHUNK} sets each; those before {@link #chunk} are full. */
  private final java.util.List<Chunk> chunks = new java.util.ArrayList<>();
  private int chunk;

  /** A descriptor pool and the room left in it. */
  private static final class Chunk {
    final long pool;
    final int capacity;
    int sets = SETS_PER_CHUNK;
    int descriptors;

    Chunk(long pool, int capacity) {
      this.pool = pool;
      this.capacity = capacity;
      this.descriptors = capacity;
    }
  }

  static final int SETS_PER_CHUNK = 256;
  static final int DESCRIPTORS_PER_CHUNK = 2048;

  BatchResources(VulkanBackend backend) {
    VkDevice device = backend.device();
    commandPool = ThreadContext.createCommandPool(device, backend.queueFamily());
    commands = ThreadContext.allocateCommandBuffer(device, commandPool);
    fence = ThreadContext.createFence(device);
    faults = new LaunchFaults(backend.staging(NumericType.INT, LaunchFaults.WORDS));
  }

  /** A descriptor pool with room for one set of a kernel of {@code buffers} buffers. */
  long descriptorPool(VulkanBackend backend, MemoryStack stack, int buffers) {
    int descriptors = buffers + 1;
    while (chunk < chunks.size() && (chunks.get(chunk).sets < 1 || chunks.get(chunk).descriptors < descriptors)) {
      chunk++;
    }
    if (chunk == chunks.size()) {
      int capacity = Math.max(DESCRIPTORS_PER_CHUNK, descriptors);
      chunks.add(new Chunk(backend.createDescriptorPool(stack, SETS_PER_CHUNK, capacity), capacity));
    }
    Chunk current = chunks.get(chunk);
    current.sets--;
    current.descriptors -= descriptors;
    return current.pool;
  }

  /** Ready for the next batch: nothing recorded, no sets allocated (the fence is unsignaled once waited for). */
  void reset(VkDevice device) {
    Vk.check(vkResetCommandPool(device, commandPool, 0), "vkResetCommandPool");
    for (Chunk pool : chunks) {
      Vk.check(vkResetDescriptorPool(device, pool.pool, 0), "vkResetDescriptorPool");
      pool.sets = SETS_PER_CHUNK;
      pool.descriptors = pool.capacity;
    }
    chunk = 0;
  }

  void destroy(VkDevice device) {
    chunks.forEach(pool -> vkDestroyDescriptorPool(device, pool.pool, null));
    faults.buffer().close();
    vkDestroyFence(device, fence, null);
    vkDestroyCommandPool(device, commandPool, null);
  }
}
