package dev.kiln.samples;

import dev.kiln.Device;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of tests that run kernels on Vulkan (validation layer on) and on the CPU backend: opens both
 * once per class. Closing the Vulkan device throws if the validation layer reported anything.
 */
abstract class BothDevices {
  static Device vulkan;
  static Device cpu;

  @BeforeAll
  static void openDevices() {
    cpu = TestDevices.cpu();
    vulkan = TestDevices.vulkan();
  }

  @AfterAll
  static void closeDevices() {
    try {
      if (vulkan != null) {
        vulkan.close();
      }
    } finally {
      vulkan = null;
      cpu.close();
    }
  }
}
