package dev.kiln.vulkan;

import java.util.Locale;
import org.lwjgl.Version;
import org.lwjgl.system.Library;

/**
 * LWJGL's native libraries (its core's and VMA's), each loaded before the first call that needs it
 * ({@link NativesLock} held), so that where one is missing the reason names the artifact to add: a
 * Gradle build, or a path put together by hand, may lack the natives of the machine it runs on
 * (Maven takes them from the runtime's POM).
 */
final class LwjglNatives {
  private LwjglNatives() {}

  /** Loads LWJGL's core native library, which every Vulkan call needs. */
  static void loadCore() throws VulkanUnavailableException {
    LwjglMessages.toKilnLog();
    NativesLock.around(() -> {
      try {
        Library.initialize();
      } catch (Throwable e) { // UnsatisfiedLinkError, or NoClassDefFoundError once that has failed
        throw missing("lwjgl", e);
      }
    });
  }

  /** Loads VMA's native library, before the device is made that its allocator would serve. */
  static void loadVma() throws VulkanUnavailableException {
    NativesLock.around(() -> {
      try {
        Class.forName("org.lwjgl.util.vma.Vma", true, LwjglNatives.class.getClassLoader());
      } catch (Throwable e) {
        throw missing("lwjgl-vma", e);
      }
    });
  }

  private static VulkanUnavailableException missing(String artifact, Throwable e) {
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "");
    String classifier = classifier(os, arch);
    String version = Version.VERSION_MAJOR + "." + Version.VERSION_MINOR + "." + Version.VERSION_REVISION;
    return new VulkanUnavailableException(classifier == null
        ? "LWJGL has no native libraries for " + os + " on " + arch + " (" + e + ")"
        : "the native library of org.lwjgl:" + artifact + " cannot be loaded (" + e + "); add org.lwjgl:" + artifact
            + ":" + version + ":" + classifier + " to the class or module path", e);
  }

  /**
   * The classifier of LWJGL's natives for the JVM properties {@code os.name} and {@code os.arch}, as
   * LWJGL publishes them ({@code natives-linux}, {@code natives-windows-arm64}, ...), or null where
   * LWJGL has none.
   */
  static String classifier(String osName, String osArch) {
    String name = osName.toLowerCase(Locale.ROOT);
    String os = name.startsWith("linux") ? "linux"
        : name.startsWith("windows") ? "windows"
        : name.startsWith("mac") || name.startsWith("darwin") ? "macos"
        : name.startsWith("freebsd") ? "freebsd"
        : null;
    String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
      case "amd64", "x86_64" -> "";
      case "aarch64", "arm64" -> "-arm64";
      case "x86", "i386", "i486", "i586", "i686" -> "-x86";
      case "arm", "arm32" -> "-arm32";
      case "ppc64le" -> "-ppc64le";
      case "riscv64" -> "-riscv64";
      default -> null;
    };
    return os == null || arch == null ? null : "natives-" + os + arch;
  }
}
