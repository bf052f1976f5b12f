package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/** Opens a Vulkan backend for a test, or skips it with the reason (fails instead with kiln.noSkips). */
final class TestBackends {
  private TestBackends() {}

  static VulkanBackend open(boolean validation) {
    try {
      return VulkanBackend.open("", validation);
    } catch (VulkanUnavailableException e) {
      if (Boolean.getBoolean("kiln.noSkips")) {
        fail("no Vulkan device (kiln.noSkips=true): " + e.getMessage());
      }
      Assumptions.abort("no Vulkan device: " + e.getMessage());
      throw new AssertionError(e);
    }
  }
}
