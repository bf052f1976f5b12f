package dev.kiln;

import dev.kiln.backend.Backend;
import dev.kiln.cpu.CpuBackend;
import dev.kiln.vulkan.VulkanBackend;
import dev.kiln.vulkan.VulkanUnavailableException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which backend {@link Device#open(String)} opens: the CPU backend where it is named; a Vulkan
 * device where one is named ({@code "vulkan"}, or a fragment of its name), failing if there is
 * none; otherwise the best hardware Vulkan device, or the CPU backend and the reason it fell back
 * to it. A software Vulkan device (lavapipe) is taken only when named. A suffix {@code #n} takes
 * the device of rank n (from 0) instead of the best: {@code "vulkan#1"}, {@code "H200#3"}, and
 * {@code "#1"} for the second hardware GPU, which must then exist.
 */
final class DeviceSelection {
  /** A selector with a rank: what names the devices, then {@code #} and the rank. */
  private static final Pattern RANKED = Pattern.compile("(.*)#(\\d{1,4})");

  private DeviceSelection() {}

  /**
   * The backend opened, and why the CPU backend was taken where no device was named and no hardware
   * Vulkan device could be opened (null otherwise).
   */
  record Choice(Backend backend, String fallbackReason) {}

  /** How many hardware GPUs Vulkan lists (0 where there is no Vulkan loader or device). */
  static int hardwareGpus() {
    if (GpuNodes.absence() != null) {
      return 0;
    }
    try {
      return VulkanBackend.hardwareDeviceCount();
    } catch (VulkanUnavailableException e) {
      return 0;
    }
  }

  /**
   * Opens the backend {@code selector} names: {@code "cpu"}, {@code "vulkan"}, a name fragment or
   * "".
   */
  static Choice open(String selector) {
    String choice = selector.strip();
    boolean validation = Boolean.getBoolean("kiln.validation");
    if (choice.equalsIgnoreCase("cpu")) {
      return new Choice(new CpuBackend(), null);
    }
    Matcher ranked = RANKED.matcher(choice);
    String named = ranked.matches() ? ranked.group(1).strip() : choice;
    int index = ranked.matches() ? Integer.parseInt(ranked.group(2)) : 0;
    String noGpu = choice.isEmpty() ? GpuNodes.absence() : null;
    if (noGpu != null) { // no driver can find a GPU: loading them (lavapipe's LLVM) costs a second
      return new Choice(new CpuBackend(), noGpu);
    }
    try {
      return new Choice(
          named.isEmpty()
              ? VulkanBackend.openHardware(index, validation)
              : VulkanBackend.open(
                  named.equalsIgnoreCase("vulkan") ? "" : named, index, validation),
          null);
    } catch (VulkanUnavailableException e) {
      if (!choice.isEmpty()) {
        throw new IllegalStateException("kiln.device=" + choice + ": " + e.getMessage(), e);
      }
      return new Choice(new CpuBackend(), e.getMessage());
    }
  }
}
