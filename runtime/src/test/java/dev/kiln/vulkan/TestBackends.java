package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/**
 * Opens a Vulkan backend for a test, or skips it with the reason (fails instead with kiln.noSkips);
 * other skips too.
 */
public final class TestBackends {
  private TestBackends() {}

  static VulkanBackend open(boolean validation) {
    try {
      return VulkanBackend.open("", 0, validation);
    } catch (VulkanUnavailableException e) {
      throw skip("no Vulkan device: " + e.getMessage());
    }
  }

  /**
   * Skips the test with {@code reason}, or fails it where {@code -Dkiln.noSkips=true} (CI) forbids
   * skips; returns only to let callers write {@code throw skip(...)}.
   */
  public static AssertionError skip(String reason) {
    if (Boolean.getBoolean("kiln.noSkips")) {
      fail(reason + " (kiln.noSkips=true)");
    }
    Assumptions.abort(reason);
    return new AssertionError(reason);
  }
}
