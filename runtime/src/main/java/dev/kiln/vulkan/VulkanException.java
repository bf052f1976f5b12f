package dev.kiln.vulkan;

/** A Vulkan call failed or the validation layer reported a message. */
public final class VulkanException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  VulkanException(String message) {
    super(message);
  }
}
