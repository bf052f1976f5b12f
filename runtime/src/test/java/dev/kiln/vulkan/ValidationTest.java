package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lwjgl.vulkan.VK10.*;

import java.nio.LongBuffer;
import org.junit.jupiter.api.Test;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCreateInfo;

/** A message of the validation layer is not lost: it fails the next operation of the device. */
class ValidationTest {
  @Test
  void invalidUsageFailsTheNextOperation() {
    VulkanBackend backend = TestBackends.open(true);
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkBufferCreateInfo invalid =
          VkBufferCreateInfo.calloc(stack)
              .sType$Default()
              .size(16)
              .usage(0) // VUID-VkBufferCreateInfo-usage-requiredbitmask
              .sharingMode(VK_SHARING_MODE_EXCLUSIVE);
      LongBuffer buffer = stack.mallocLong(1);
      vkCreateBuffer(backend.device(), invalid, null, buffer);
      vkDestroyBuffer(backend.device(), buffer.get(0), null);
    }
    VulkanException thrown = assertThrows(VulkanException.class, backend::close);
    assertTrue(thrown.getMessage().contains("VkBufferCreateInfo"), thrown.getMessage());
  }
}
