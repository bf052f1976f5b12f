package dev.kiln;

import dev.kiln.backend.Backend;
import dev.kiln.cpu.CpuBackend;
import dev.kiln.vulkan.VulkanBackend;
import dev.kiln.vulkan.VulkanUnavailableException;

/**
 * Which backend {@link Device#open(String)} opens: the CPU backend where it is named; a Vulkan
 * device where one is named ({@code "vulkan"}, or a fragment of its name), failing if there is
 * none; otherwise the best hardware Vulkan device, or the CPU backend and the reason it fell back
 * to it. A software Vulkan device (lavapipe) is taken only when named.
 */
final class DeviceSelection {
  private DeviceSelection() {}

  /**
   * The backend opened, and why the CPU backend was taken where no device was named and no
   * hardware Vulkan device could be opened (null otherwise).
   */
  record Choice(Backend backend, String fallbackReason) {}

  /** Opens the backend {@code selector} names: {@code "cpu"}, {@code "vulkan"}, a name fragment or "". */
  static Choice open(String selector) {
    String choice = selector.strip();
    boolean validation = Boolean.getBoolean("kiln.validation");
    if (choice.equalsIgnoreCase("cpu")) {
      return new Choice(new CpuBackend(), null);
    }
    try {
      return new Choice(choice.isEmpty()
          ? VulkanBackend.openHardware(validation)
          : VulkanBackend.open(choice.equalsIgnoreCase("vulkan") ? "" : choice, validation), null);
    } catch (VulkanUnavailableException e) {
      if (!choice.isEmpty()) {
        throw new IllegalStateException("kiln.device=" + choice + ": " + e.getMessage(), e);
      }
      return new Choice(new CpuBackend(), e.getMessage());
    }
  }
}
