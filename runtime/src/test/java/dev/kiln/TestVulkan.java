package dev.kiln;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/** Opens a Vulkan device for a test (software ones included), or skips it with the reason (fails instead with kiln.noSkips). */
final class TestVulkan {
  private TestVulkan() {}

  static Device open() {
    try {
      return Device.open("vulkan");
    } catch (IllegalStateException e) {
      if (Boolean.getBoolean("kiln.noSkips")) {
        fail("no Vulkan device (kiln.noSkips=true): " + e.getMessage());
      }
      Assumptions.abort("no Vulkan device: " + e.getMessage());
      throw e;
    }
  }
}
