package dev.kiln.samples.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.Device;
import dev.kiln.abi.SubgroupLanes;
import org.junit.jupiter.api.Assumptions;

/**
 * The devices tests run on. Vulkan tests are skipped with the reason when no Vulkan device can be
 * opened, unless {@code -Dkiln.noSkips=true} (CI) makes that a failure ({@link #skip}, which tests
 * that need a tool use too). With
 * {@code -Dkiln.validation=true} (the build's default) the validation layer must really be on.
 */
public final class TestDevices {
  private TestDevices() {}

  public static Device vulkan() {
    Device device;
    try {
      device = Device.open("vulkan");
    } catch (IllegalStateException e) {
      throw skip("no Vulkan device: " + e.getMessage());
    }
    assertEquals("vulkan", device.backend());
    if (Boolean.getBoolean("kiln.validation")) {
      assertTrue(device.validationEnabled(), "kiln.validation=true but the validation layer is off");
    }
    return device;
  }

  /**
   * Skips the test with {@code reason}, or fails it where {@code -Dkiln.noSkips=true} (CI) forbids
   * skips; returns only to let callers write {@code throw skip(...)}.
   */
  public static AssertionError skip(String reason) {
    if (Boolean.getBoolean("kiln.noSkips")) {
      fail(reason + " (kiln.noSkips=true: tests may not be skipped)");
    }
    Assumptions.abort(reason);
    return new AssertionError(reason);
  }

  public static Device cpu() {
    return Device.open("cpu");
  }

  /** The CPU backend (its twins) emulating subgroups of {@code subgroupSize} lanes. */
  public static Device cpu(int subgroupSize) {
    return withProperty(SubgroupLanes.SIZE_PROPERTY, Integer.toString(subgroupSize), () -> Device.open("cpu"));
  }

  /** The CPU backend running the kernel methods themselves ({@code -Dkiln.cpu=java}): the twins' oracle. */
  public static Device cpuMethods() {
    return withProperty("kiln.cpu", "java", () -> Device.open("cpu"));
  }

  /** The kernel methods, in subgroups of {@code subgroupSize} lanes. */
  public static Device cpuMethods(int subgroupSize) {
    return withProperty(SubgroupLanes.SIZE_PROPERTY, Integer.toString(subgroupSize), TestDevices::cpuMethods);
  }

  /** {@code open} with the system property set to {@code value}: the CPU backend reads its settings on opening. */
  private static Device withProperty(String name, String value, java.util.function.Supplier<Device> open) {
    String before = System.getProperty(name);
    System.setProperty(name, value);
    try {
      return open.get();
    } finally {
      if (before == null) {
        System.clearProperty(name);
      } else {
        System.setProperty(name, before);
      }
    }
  }
}
