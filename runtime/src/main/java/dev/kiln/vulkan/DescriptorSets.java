package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDescriptorPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorPoolSize;

/**
 * Descriptor pools for the sets of one recording, where a kernel's buffers cannot be pushed (no
 * VK_KHR_push_descriptor, or more buffers than a push descriptor holds): pools of {@link
 * #SETS_PER_POOL} sets, made as a recording needs them and reset, not freed, for the next.
 */
final class DescriptorSets {
  static final int SETS_PER_POOL = 256;
  static final int DESCRIPTORS_PER_POOL = 2048;

  /** A descriptor pool and the room left in it. */
  private static final class Pool {
    final long handle;
    final int capacity;
    int sets = SETS_PER_POOL;
    int descriptors;

    Pool(long handle, int capacity) {
      this.handle = handle;
      this.capacity = capacity;
      this.descriptors = capacity;
    }
  }

  private final VulkanBackend backend;

  /** Pools before {@link #current} are full. */
  private final List<Pool> pools = new ArrayList<>();

  private int current;

  DescriptorSets(VulkanBackend backend) {
    this.backend = backend;
  }

  /** A pool with room for one set of {@code descriptors} storage buffers, counted as taken. */
  long poolFor(int descriptors) {
    while (current < pools.size()
        && (pools.get(current).sets < 1 || pools.get(current).descriptors < descriptors)) {
      current++;
    }
    if (current == pools.size()) {
      int capacity = Math.max(DESCRIPTORS_PER_POOL, descriptors);
      pools.add(new Pool(create(capacity), capacity));
    }
    Pool pool = pools.get(current);
    pool.sets--;
    pool.descriptors -= descriptors;
    return pool.handle;
  }

  /** Frees every set handed out, keeping the pools. */
  void reset() {
    for (int used = 0; used < pools.size() && used <= current; used++) {
      Pool pool = pools.get(used);
      Vk.check(vkResetDescriptorPool(backend.device(), pool.handle, 0), "vkResetDescriptorPool");
      pool.sets = SETS_PER_POOL;
      pool.descriptors = pool.capacity;
    }
    current = 0;
  }

  void destroy() {
    pools.forEach(pool -> vkDestroyDescriptorPool(backend.device(), pool.handle, null));
    pools.clear();
  }

  private long create(int descriptors) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack);
      sizes.get(0).type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(descriptors);
      LongBuffer handle = stack.mallocLong(1);
      Vk.check(
          vkCreateDescriptorPool(
              backend.device(),
              VkDescriptorPoolCreateInfo.calloc(stack)
                  .sType$Default()
                  .maxSets(SETS_PER_POOL)
                  .pPoolSizes(sizes),
              null,
              handle),
          "vkCreateDescriptorPool");
      return handle.get(0);
    }
  }
}
