package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.Device;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the library's tests: the CPU backend and a Vulkan device (lavapipe in CI), opened once
 * per class. Without Vulkan the class is skipped with the reason, unless {@code
 * -Dkiln.noSkips=true} makes that a failure.
 */
abstract class LibraryDevices {
  static Device cpu;
  static Device vulkan;

  @BeforeAll
  static void openDevices() {
    try {
      vulkan = Device.open("vulkan");
    } catch (IllegalStateException e) {
      String reason = "no Vulkan device: " + e.getMessage();
      if (Boolean.getBoolean("kiln.noSkips")) {
        fail(reason + " (kiln.noSkips=true: tests may not be skipped)");
      }
      Assumptions.abort(reason);
    }
    cpu = Device.open("cpu");
  }

  @AfterAll
  static void closeDevices() {
    try {
      if (vulkan != null) {
        vulkan.close();
      }
    } finally {
      vulkan = null;
      if (cpu != null) {
        cpu.close();
        cpu = null;
      }
    }
  }

  /** Both devices, the CPU backend first. */
  static Device[] devices() {
    return new Device[] {cpu, vulkan};
  }
}
