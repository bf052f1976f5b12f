package dev.kiln.vulkan;

import static org.lwjgl.vulkan.EXTDebugUtils.*;
import static org.lwjgl.vulkan.VK10.VK_FALSE;

import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackDataEXT;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCallbackEXT;
import org.lwjgl.vulkan.VkDebugUtilsMessengerCreateInfoEXT;
import org.lwjgl.vulkan.VkInstance;

/**
 * Collects the warnings and errors of the Vulkan validation layer (and of anything else that speaks
 * through VK_EXT_debug_utils) so that the backend can turn them into exceptions.
 */
final class ValidationLog {
  static final String LAYER = "VK_LAYER_KHRONOS_validation";

  /**
   * The upcall the layer calls, made with the first messenger description: once LWJGL's core is
   * loaded and its messages go to Kiln's log ({@link LwjglMessages}), as its class is LWJGL's.
   */
  private VkDebugUtilsMessengerCallbackEXT callback;

  private final List<String> messages = new ArrayList<>();
  private long messenger;

  private int onMessage(int severity, int types, long callbackData, long userData) {
    String text = VkDebugUtilsMessengerCallbackDataEXT.create(callbackData).pMessageString();
    synchronized (messages) {
      messages.add(text);
    }
    return VK_FALSE;
  }

  /** The messenger description; chained into instance creation it also sees that call. */
  VkDebugUtilsMessengerCreateInfoEXT createInfo(MemoryStack stack) {
    if (callback == null) {
      callback = VkDebugUtilsMessengerCallbackEXT.create(this::onMessage);
    }
    return VkDebugUtilsMessengerCreateInfoEXT.calloc(stack)
        .sType$Default()
        .messageSeverity(
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT
                | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
        .messageType(
            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT
                | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT
                | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT)
        .pfnUserCallback(callback);
  }

  void attach(VkInstance instance) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      LongBuffer handle = stack.mallocLong(1);
      Vk.check(
          vkCreateDebugUtilsMessengerEXT(instance, createInfo(stack), null, handle),
          "vkCreateDebugUtilsMessengerEXT");
      messenger = handle.get(0);
    }
  }

  /** Throws a {@link VulkanException} listing every message since the last call, if any. */
  void throwIfAny(String during) {
    List<String> taken;
    synchronized (messages) {
      if (messages.isEmpty()) {
        return;
      }
      taken = List.copyOf(messages);
      messages.clear();
    }
    throw new VulkanException(
        "Vulkan validation reported "
            + taken.size()
            + " message(s) "
            + during
            + ":\n  "
            + String.join("\n  ", taken));
  }

  void close(VkInstance instance) {
    if (messenger != 0) {
      vkDestroyDebugUtilsMessengerEXT(instance, messenger, null);
      messenger = 0;
    }
    if (callback != null) {
      callback.free();
      callback = null;
    }
  }
}
