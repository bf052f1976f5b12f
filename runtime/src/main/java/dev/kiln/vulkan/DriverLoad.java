package dev.kiln.vulkan;

/**
 * The first Vulkan call, made without LWJGL, for {@link VulkanWarmup#driversWarmup()}: it needs the
 * FFM API, final in JDK 22. This is the JDK 21 version, which does nothing; the jar's {@code
 * META-INF/versions/22} holds the one that calls (source: {@code src/main/java22}).
 */
final class DriverLoad {
  private DriverLoad() {}

  /** Whether {@link #countExtensions} does anything here. */
  static boolean available() {
    return false;
  }

  /**
   * Asks the Vulkan loader in {@code library} to count the instance extensions, which loads its
   * drivers.
   *
   * @return what came of it, for the start-up trace
   */
  static String countExtensions(String library) {
    throw new UnsupportedOperationException("needs JDK 22");
  }
}
