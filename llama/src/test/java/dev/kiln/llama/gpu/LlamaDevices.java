package dev.kiln.llama.gpu;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.Device;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the llama module's device tests: the CPU backend always, and a Vulkan device (lavapipe in
 * CI) where there is one, opened once per class. A test runs on the CPU backend either way, then
 * ends as skipped with the reason where Vulkan is missing ({@link #abortWithoutVulkan}), unless
 * {@code -Dkiln.noSkips=true} makes the missing device a failure.
 */
abstract class LlamaDevices {
  static Device cpu;
  static Device vulkan;

  @BeforeAll
  static void openDevices() {
    cpu = Device.open("cpu");
    try {
      vulkan = Device.open("vulkan");
    } catch (IllegalStateException e) {
      if (Boolean.getBoolean("kiln.noSkips")) {
        fail(
            "no Vulkan device: "
                + e.getMessage()
                + " (kiln.noSkips=true: tests may not be skipped)");
      }
    }
  }

  @AfterAll
  static void closeDevices() {
    cpu.close();
    if (vulkan != null) {
      vulkan.close();
      vulkan = null;
    }
  }

  /** The CPU backend, then Vulkan where there is one. */
  static Device[] devices() {
    return vulkan == null ? new Device[] {cpu} : new Device[] {cpu, vulkan};
  }

  /**
   * Ends the test as skipped where there is no Vulkan device: {@code "no Vulkan device: the CPU
   * backend " + ranOnCpu + ", Vulkan did not"}.
   */
  static void abortWithoutVulkan(String ranOnCpu) {
    if (vulkan == null) {
      Assumptions.abort("no Vulkan device: the CPU backend " + ranOnCpu + ", Vulkan did not");
    }
  }
}
