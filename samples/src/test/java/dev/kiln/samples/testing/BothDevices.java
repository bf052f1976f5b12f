package dev.kiln.samples.testing;

import dev.kiln.Device;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of tests that run kernels on Vulkan (validation layer on) and on the CPU backend, the latter
 * both through the processor's CPU twins and as the kernel methods themselves, in subgroups of the
 * Vulkan device's size: opens the three once per class. Closing the Vulkan device throws if the validation layer reported anything.
 */
public abstract class BothDevices {
  protected static Device vulkan;
  protected static Device cpu;
  protected static Device cpuMethods;

  /** The CPU backend's two paths emulate the Vulkan device's subgroup size, so that all three give the same bits. */
  @BeforeAll
  protected static void openDevices() {
    vulkan = TestDevices.vulkan();
    cpu = TestDevices.cpu(vulkan.subgroupSize());
    cpuMethods = TestDevices.cpuMethods(vulkan.subgroupSize());
  }

  /**
   * Makes the arguments three times from the seed {@code n}, runs {@code launch} on the kernel
   * methods, the CPU twins and Vulkan, and compares every array argument afterwards, bit for bit:
   * the twins with the methods, Vulkan with the twins.
   */
  protected static void compare(String what, int n, Function<Random, Object[]> arguments, BiConsumer<Device, Object[]> launch) {
    Object[] onMethods = arguments.apply(new Random(n));
    Object[] onCpu = arguments.apply(new Random(n));
    Object[] onVulkan = arguments.apply(new Random(n));
    launch.accept(cpuMethods, onMethods);
    launch.accept(cpu, onCpu);
    launch.accept(vulkan, onVulkan);
    for (int i = 0; i < onCpu.length; i++) {
      if (onCpu[i] != null && onCpu[i].getClass().isArray()) {
        Bits.assertSameBits(what + " argument " + i + " at n = " + n + ", CPU twin against method", onMethods[i],
            onCpu[i]);
        Bits.assertSameBits(what + " argument " + i + " at n = " + n, onCpu[i], onVulkan[i]);
      }
    }
  }

  @AfterAll
  protected static void closeDevices() {
    try {
      if (vulkan != null) {
        vulkan.close();
      }
    } finally {
      vulkan = null;
      if (cpu != null) {
        cpu.close();
        cpuMethods.close();
      }
    }
  }
}
