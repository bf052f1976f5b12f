package dev.kiln;

import dev.kiln.vulkan.VulkanBackend;
import dev.kiln.vulkan.VulkanUnavailableException;

/**
 * Lists the devices Kiln can run on, best first, with what matters for compute: {@code java -jar}
 * on the runtime's jar where {@code ./mvnw install} put it (its manifest's class path finds LWJGL
 * in the same local repository), or {@code java -cp <jars> dev.kiln.Devices}.
 */
public final class Devices {
  private Devices() {}

  /**
   * Prints the devices Kiln can use and marks the one {@link Device#open()} takes.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    if (Runtime.version().feature() >= 22
        && System.getProperty("org.lwjgl.system.memoryBackend") == null) {
      System.setProperty(
          "org.lwjgl.system.memoryBackend",
          "org.lwjgl.system.MemoryBackendFFM"); // no Unsafe warnings
    }
    try {
      VulkanBackend.describeDevices().forEach(device -> System.out.println("vulkan  " + device));
      VulkanBackend.describeDeviceGroups()
          .forEach(group -> System.out.println("vulkan  device " + group));
    } catch (VulkanUnavailableException e) {
      System.out.println("vulkan  none: " + e.getMessage());
    }
    System.out.println(
        "cpu     Java "
            + Runtime.version().feature()
            + " on "
            + Runtime.getRuntime().availableProcessors()
            + " cores [the default where no hardware GPU is listed]\n    the CPU twins the processor generates, in parallel"
            + " (the kernel methods with -Dkiln.cpu=java)");
  }
}
