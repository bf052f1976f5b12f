package dev.kiln.vulkan;

/** No Vulkan device can be used: no loader, no driver, or no device that matches the request. */
public final class VulkanUnavailableException extends Exception {
  VulkanUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
