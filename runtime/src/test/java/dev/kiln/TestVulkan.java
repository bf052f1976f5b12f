package dev.kiln;

import dev.kiln.vulkan.TestBackends;

/**
 * Opens a Vulkan device for a test (software ones included), or skips it with the reason ({@link
 * TestBackends#skip}).
 */
final class TestVulkan {
  private TestVulkan() {}

  static Device open() {
    try {
      return Device.open("vulkan");
    } catch (IllegalStateException e) {
      throw TestBackends.skip("no Vulkan device: " + e.getMessage());
    }
  }
}
