package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.VK_SUCCESS;

import org.lwjgl.vulkan.VK10;

/** Result checking for Vulkan calls. */
final class Vk {
  private Vk() {}

  /** Throws if {@code result} is not {@code VK_SUCCESS}. */
  static void check(int result, String call) {
    if (result != VK_SUCCESS) {
      throw new VulkanException(call + " failed: " + name(result));
    }
  }

  static String name(int result) {
    return switch (result) {
      case VK10.VK_ERROR_OUT_OF_HOST_MEMORY -> "VK_ERROR_OUT_OF_HOST_MEMORY";
      case VK10.VK_ERROR_OUT_OF_DEVICE_MEMORY -> "VK_ERROR_OUT_OF_DEVICE_MEMORY";
      case VK10.VK_ERROR_INITIALIZATION_FAILED -> "VK_ERROR_INITIALIZATION_FAILED";
      case VK10.VK_ERROR_DEVICE_LOST -> "VK_ERROR_DEVICE_LOST";
      case VK10.VK_ERROR_LAYER_NOT_PRESENT -> "VK_ERROR_LAYER_NOT_PRESENT";
      case VK10.VK_ERROR_EXTENSION_NOT_PRESENT -> "VK_ERROR_EXTENSION_NOT_PRESENT";
      case VK10.VK_ERROR_INCOMPATIBLE_DRIVER -> "VK_ERROR_INCOMPATIBLE_DRIVER";
      case VK10.VK_TIMEOUT -> "VK_TIMEOUT";
      default -> "VkResult " + result;
    };
  }
}
