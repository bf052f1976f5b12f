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

  /** The LWJGL release the runtime is built against, for a reason that names the jars to add. */
  static final String LWJGL_VERSION = "3.4.3";

  /** LWJGL's classes that Kiln's Vulkan backend needs, one of each jar: core, Vulkan, VMA. */
  private static final String[] LWJGL_CLASSES = {
    "org.lwjgl.system.Library", "org.lwjgl.vulkan.VK10", "org.lwjgl.util.vma.Vma"
  };

  /**
   * Loads LWJGL's core native library, which every Vulkan call needs; first checks that LWJGL's
   * classes are there.
   */
  static void loadCore() throws VulkanUnavailableException {
    for (String name : LWJGL_CLASSES) {
      try {
        Class.forName(name, false, LwjglNatives.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        throw new VulkanUnavailableException(
            "LWJGL's classes are not on the class path (no "
                + name
                + "): add"
                + " org.lwjgl:lwjgl, lwjgl-vulkan and lwjgl-vma "
                + LWJGL_VERSION
                + ", with lwjgl's and lwjgl-vma's "
                + nativesOfThisMachine()
                + ", to the class or module path (a Maven or Gradle dependency on"
                + " dev.kiln:kiln-runtime brings them all)",
            e);
      }
    }
    LwjglMessages.toKilnLog();
    NativesLock.around(
        () -> {
          try {
            Library.initialize();
          } catch (
              Throwable e) { // UnsatisfiedLinkError, or NoClassDefFoundError once that has failed
            throw missing("lwjgl", e);
          }
        });
  }

  /** Loads VMA's native library, before the device is made that its allocator would serve. */
  static void loadVma() throws VulkanUnavailableException {
    NativesLock.around(
        () -> {
          try {
            Class.forName("org.lwjgl.util.vma.Vma", true, LwjglNatives.class.getClassLoader());
          } catch (Throwable e) {
            throw missing("lwjgl-vma", e);
          }
        });
  }

  /** The classifier of this machine's LWJGL natives, or a description where LWJGL has none. */
  private static String nativesOfThisMachine() {
    String classifier =
        classifier(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    return classifier == null ? "natives (LWJGL has none for this platform)" : classifier;
  }

  private static VulkanUnavailableException missing(String artifact, Throwable e) {
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "");
    String classifier = classifier(os, arch);
    String version =
        Version.VERSION_MAJOR + "." + Version.VERSION_MINOR + "." + Version.VERSION_REVISION;
    return new VulkanUnavailableException(
        classifier == null
            ? "LWJGL has no native libraries for " + os + " on " + arch + " (" + e + ")"
            : "the native library of org.lwjgl:"
                + artifact
                + " cannot be loaded ("
                + e
                + "); add org.lwjgl:"
                + artifact
                + ":"
                + version
                + ":"
                + classifier
                + " to the class or module path",
        e);
  }

  /**
   * The classifier of LWJGL's natives for the JVM properties {@code os.name} and {@code os.arch},
   * as LWJGL publishes them ({@code natives-linux}, {@code natives-windows-arm64}, ...), or null
   * where LWJGL has none.
   */
  static String classifier(String osName, String osArch) {
    String name = osName.toLowerCase(Locale.ROOT);
    String os =
        name.startsWith("linux")
            ? "linux"
            : name.startsWith("windows")
                ? "windows"
                : name.startsWith("mac") || name.startsWith("darwin")
                    ? "macos"
                    : name.startsWith("freebsd") ? "freebsd" : null;
    String arch =
        switch (osArch.toLowerCase(Locale.ROOT)) {
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
