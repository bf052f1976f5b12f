package dev.kiln.vulkan;

import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.NumericType;
import dev.kiln.backend.BackendBuffer;
import java.nio.LongBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.util.vma.VmaAllocationInfo;
import org.lwjgl.vulkan.VkBufferCreateInfo;

/**
 * A storage buffer in host-visible memory, mapped for its whole life. An empty array still gets a
 * 4-byte buffer, since Vulkan has no empty buffers.
 */
final class VulkanBuffer implements BackendBuffer {
  private final VulkanBackend owner;
  private final NumericType type;
  private final int length;
  private final long handle;
  private final long allocation;
  private final long mapped;
  private boolean closed;

  VulkanBuffer(VulkanBackend owner, NumericType type, int length) {
    this.owner = owner;
    this.type = type;
    this.length = length;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkBufferCreateInfo info = VkBufferCreateInfo.calloc(stack)
          .sType$Default()
          .size(byteSize())
          .usage(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT)
          .sharingMode(VK_SHARING_MODE_EXCLUSIVE);
      VmaAllocationCreateInfo memory = VmaAllocationCreateInfo.calloc(stack)
          .usage(VMA_MEMORY_USAGE_AUTO)
          .flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_RANDOM_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT);
      LongBuffer buffer = stack.mallocLong(1);
      PointerBuffer alloc = stack.mallocPointer(1);
      VmaAllocationInfo allocated = VmaAllocationInfo.calloc(stack);
      Vk.check(vmaCreateBuffer(owner.allocator(), info, memory, buffer, alloc, allocated), "vmaCreateBuffer");
      handle = buffer.get(0);
      allocation = alloc.get(0);
      mapped = allocated.pMappedData();
      MemoryUtil.memSet(mapped, 0, byteSize());
      vmaFlushAllocation(owner.allocator(), allocation, 0, VK_WHOLE_SIZE);
    }
  }

  /** Bytes the buffer occupies on the device: at least 4. */
  long byteSize() {
    return Math.max(4L, (long) length * type.bytes());
  }

  long handle() {
    return handle;
  }

  @Override
  public NumericType type() {
    return type;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public void write(Object array) {
    switch (array) {
      case float[] values -> MemoryUtil.memFloatBuffer(mapped, length).put(0, values);
      case int[] values -> MemoryUtil.memIntBuffer(mapped, length).put(0, values);
      case long[] values -> MemoryUtil.memLongBuffer(mapped, length).put(0, values);
      case double[] values -> MemoryUtil.memDoubleBuffer(mapped, length).put(0, values);
      default -> throw new IllegalArgumentException(array.getClass().getSimpleName());
    }
    vmaFlushAllocation(owner.allocator(), allocation, 0, VK_WHOLE_SIZE);
  }

  @Override
  public void read(Object array) {
    vmaInvalidateAllocation(owner.allocator(), allocation, 0, VK_WHOLE_SIZE);
    switch (array) {
      case float[] values -> MemoryUtil.memFloatBuffer(mapped, length).get(0, values);
      case int[] values -> MemoryUtil.memIntBuffer(mapped, length).get(0, values);
      case long[] values -> MemoryUtil.memLongBuffer(mapped, length).get(0, values);
      case double[] values -> MemoryUtil.memDoubleBuffer(mapped, length).get(0, values);
      default -> throw new IllegalArgumentException(array.getClass().getSimpleName());
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      owner.free(this);
      vmaDestroyBuffer(owner.allocator(), handle, allocation);
    }
  }
}
