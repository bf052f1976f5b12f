package dev.kiln.vulkan;

/** No Vulkan device can be used: no loader, no driver, or no device that matches the request. */
public final class VulkanUnavailableException extends Exception {
  private static final long serialVersionUID = 1L;

  VulkanUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
