package dev.kiln.vulkan;

/** A Vulkan call failed or the validation layer reported a message. */
public final class VulkanException extends RuntimeException {
  VulkanException(String message) {
    super(message);
  }
}
