package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.kiln.Device;
import dev.kiln.FreshJvm;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where no Vulkan device can be opened, {@code Device.open()} takes the CPU backend and logs one
 * line whose reason says what is missing: a driver, the Vulkan loader, or LWJGL's natives (with the
 * artifact to add). Each case is a fresh JVM running {@link #main}, with the piece taken away.
 */
class FallbackReasonsTest {
  private static final String LINE =
      "INFO dev.kiln.Device open: Kernels run on the Java CPU backend: no hardware Vulkan"
          + " device can be opened: ";

  /**
   * Opens the best device, or the one {@code args[0]} names, and prints its backend or why it
   * cannot; {@code args[1]}, where given, is how many times.
   */
  public static void main(String[] args) {
    for (int k = 0; k < (args.length > 1 ? Integer.parseInt(args[1]) : 1); k++) {
      try (Device device = Device.open(args.length > 0 ? args[0] : "")) {
        System.out.println(device.backend());
      } catch (IllegalStateException e) {
        System.out.println("refused: " + e.getMessage());
      }
    }
  }

  /**
   * What {@link #main} printed, and everything logged (the JVM's own note of JAVA_TOOL_OPTIONS left
   * out).
   */
  private record Output(String out, List<String> log) {}

  /** The class path of the tests without the jars whose names contain {@code drop}. */
  private static String classPathWithout(String drop) {
    return Arrays.stream(FreshJvm.classPath().split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).getFileName().toString().contains(drop))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /**
   * Runs {@link #main} with {@code flags}, {@code classPath}, {@code environment} and {@code args}.
   */
  private static Output run(
      List<String> flags, String classPath, Map<String, String> environment, String... args)
      throws Exception {
    List<String> all =
        new ArrayList<>(
            List.of(
                "--enable-native-access=ALL-UNNAMED",
                "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM",
                "-Djava.util.logging.SimpleFormatter.format=%4$s %2$s: %5$s%n",
                "-Dkiln.vulkanProbe=always")); // what Vulkan lacks, asked even where the machine
    // shows no GPU (GpuNodesTest)
    all.addAll(flags);
    FreshJvm jvm =
        FreshJvm.run(FallbackReasonsTest.class, all, classPath, environment, List.of(args));
    return new Output(
        jvm.out(),
        jvm.err().lines().filter(line -> !line.startsWith("Picked up JAVA_TOOL_OPTIONS")).toList());
  }

  /** The log lines of {@link #main} run as {@link #run} does, which must choose the CPU backend. */
  private static List<String> logLines(
      List<String> flags, String classPath, Map<String, String> environment) throws Exception {
    Output output = run(flags, classPath, environment);
    assertEquals("cpu\n", output.out(), String.join("\n", output.log()));
    return output.log();
  }

  /** Skips (or fails in CI) where this machine has no Vulkan to take pieces away from. */
  private static void requireVulkan() {
    TestBackends.open(false).close();
  }

  private static String classifier() {
    String classifier =
        LwjglNatives.classifier(System.getProperty("os.name"), System.getProperty("os.arch"));
    Assumptions.assumeTrue(classifier != null, "LWJGL has natives for this platform");
    return classifier;
  }

  @Test
  void noDriver(@TempDir Path dir) throws Exception {
    requireVulkan();
    String none = dir.resolve("no-driver.json").toString();
    assertEquals(
        List.of(
            LINE
                + "vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER (the Vulkan loader found no"
                + " driver)"),
        logLines(
            List.of(),
            FreshJvm.classPath(),
            Map.of("VK_DRIVER_FILES", none, "VK_ICD_FILENAMES", none)));
  }

  @Test
  void noVulkanLoader(@TempDir Path dir) throws Exception {
    requireVulkan();
    String loader = dir.resolve("libvulkan-missing.so").toString();
    assertEquals(
        List.of(
            LINE
                + "cannot load the Vulkan loader ("
                + loader
                + "): java.lang.UnsatisfiedLinkError:"
                + " Failed to dynamically load library: "
                + loader
                + "(error = null)"),
        logLines(List.of("-Dorg.lwjgl.vulkan.libname=" + loader), FreshJvm.classPath(), Map.of()));
  }

  /**
   * A second open in the same JVM gives the first one's reason, not LWJGL's "Could not initialize
   * class".
   */
  @Test
  void aSecondOpenGivesTheSameReason(@TempDir Path dir) throws Exception {
    requireVulkan();
    String loader = dir.resolve("libvulkan-missing.so").toString();
    String refused =
        "refused: kiln.device=vulkan: cannot load the Vulkan loader ("
            + loader
            + "): java.lang.UnsatisfiedLinkError: Failed to dynamically load library: "
            + loader
            + "(error = null)\n";
    assertEquals(
        refused.repeat(2),
        run(
                List.of("-Dorg.lwjgl.vulkan.libname=" + loader),
                FreshJvm.classPath(),
                Map.of(),
                "vulkan",
                "2")
            .out());
  }

  /** A program that opens the best device again and again says once why kernels run on the CPU. */
  @Test
  void theFallbackIsSaidOncePerJvm(@TempDir Path dir) throws Exception {
    requireVulkan();
    String loader = dir.resolve("libvulkan-missing.so").toString();
    Output output =
        run(
            List.of("-Dorg.lwjgl.vulkan.libname=" + loader),
            FreshJvm.classPath(),
            Map.of(),
            "",
            "3");
    assertEquals("cpu\n".repeat(3), output.out());
    assertEquals(
        List.of(
            LINE
                + "cannot load the Vulkan loader ("
                + loader
                + "): java.lang.UnsatisfiedLinkError:"
                + " Failed to dynamically load library: "
                + loader
                + "(error = null)"),
        output.log());
  }

  /**
   * With the validation layer asked for, a missing Vulkan loader is refused in one line, and
   * LWJGL's own five lines of hints stay in the log at DEBUG: the layer's callback is made only
   * once LWJGL's messages go there (it printed them to standard error).
   */
  @Test
  void lwjglsHintsStayInTheLogWithValidationOn() throws Exception {
    requireVulkan();
    String loader =
        "vulkan-kiln-missing"; // a name LWJGL looks up on the system's paths, as libvulkan.so.1
    Output output =
        run(
            List.of("-Dorg.lwjgl.vulkan.libname=" + loader, "-Dkiln.validation=true"),
            FreshJvm.classPath(),
            Map.of(),
            "vulkan");
    assertEquals(
        "refused: kiln.device=vulkan: cannot load the Vulkan loader ("
            + loader
            + "): java.lang.UnsatisfiedLinkError: Failed to locate library: lib"
            + loader
            + ".so\n",
        output.out());
    assertEquals(List.of(), output.log());
  }

  /** No LWJGL natives on the class path (and none extracted before: a new extraction folder). */
  @Test
  void noLwjglNatives(@TempDir Path dir) throws Exception {
    String classifier = classifier();
    assertEquals(
        List.of(
            LINE
                + "the native library of org.lwjgl:lwjgl cannot be loaded (java.lang.UnsatisfiedLinkError:"
                + " Failed to locate library: "
                + System.mapLibraryName("lwjgl")
                + "); add org.lwjgl:lwjgl:3.4.3:"
                + classifier
                + " to the class or module path"),
        logLines(
            List.of("-Dorg.lwjgl.system.SharedLibraryExtractPath=" + dir),
            classPathWithout("-natives-"),
            Map.of()));
  }

  /**
   * No LWJGL at all, as with {@code java -jar kiln-runtime.jar} from a Maven repository: the reason
   * names LWJGL's jars (it named the natives, or the JVM threw NoClassDefFoundError).
   */
  @Test
  void noLwjglClasses() throws Exception {
    String classifier = classifier();
    assertEquals(
        List.of(
            LINE
                + "LWJGL's classes are not on the class path (no org.lwjgl.system.Library): add"
                + " org.lwjgl:lwjgl, lwjgl-vulkan and lwjgl-vma 3.4.3, with lwjgl's and lwjgl-vma's "
                + classifier
                + ", to the class or module path (a Maven or Gradle dependency on dev.kiln:kiln-runtime brings them all)"),
        logLines(List.of(), classPathWithout("lwjgl"), Map.of()));
  }

  @Test
  void theNamedLwjglVersionIsTheOneBuiltAgainst() {
    assertEquals(
        org.lwjgl.Version.VERSION_MAJOR
            + "."
            + org.lwjgl.Version.VERSION_MINOR
            + "."
            + org.lwjgl.Version.VERSION_REVISION,
        LwjglNatives.LWJGL_VERSION);
  }

  /** LWJGL's own hints are Kiln's log lines at FINE, shown when that level is asked for. */
  @Test
  void lwjglsOwnMessagesAreKilnsDebugLines(@TempDir Path dir) throws Exception {
    String classifier = classifier();
    Path logging = dir.resolve("logging.properties");
    java.nio.file.Files.writeString(
        logging,
        """
        handlers=java.util.logging.ConsoleHandler
        java.util.logging.ConsoleHandler.level=FINE
        dev.kiln.level=FINE
        """);
    String source = "FINE dev.kiln.vulkan.LwjglMessages$Lines write: LWJGL: ";
    assertEquals(
        List.of(
            source + "[LWJGL] Failed to load a library. Possible solutions:",
            source
                + "\ta) Add the directory that contains the shared library to -Djava.library.path or"
                + " -Dorg.lwjgl.librarypath.",
            source + "\tb) Add the JAR that contains the shared library to the classpath.",
            source
                + "[LWJGL] Enable debug mode with -Dorg.lwjgl.util.Debug=true for better diagnostics.",
            source
                + "[LWJGL] Enable the SharedLibraryLoader debug mode with -Dorg.lwjgl.util.DebugLoader=true for"
                + " better diagnostics.",
            LINE
                + "the native library of org.lwjgl:lwjgl cannot be loaded (java.lang.UnsatisfiedLinkError: Failed to"
                + " locate library: "
                + System.mapLibraryName("lwjgl")
                + "); add org.lwjgl:lwjgl:3.4.3:"
                + classifier
                + " to the class or module path"),
        logLines(
            List.of(
                "-Djava.util.logging.config.file=" + logging,
                "-Dorg.lwjgl.system.SharedLibraryExtractPath=" + dir.resolve("natives")),
            classPathWithout("-natives-"),
            Map.of()));
  }

  /**
   * LWJGL's core natives but not VMA's: found once a device is chosen, so Vulkan is named (on this
   * machine the default would stop earlier at lavapipe, a software device).
   */
  @Test
  void noVmaNatives(@TempDir Path dir) throws Exception {
    requireVulkan();
    String classifier = classifier();
    Output output =
        run(
            List.of("-Dorg.lwjgl.system.SharedLibraryExtractPath=" + dir),
            classPathWithout("lwjgl-vma-3.4.3-natives-"),
            Map.of(),
            "vulkan");
    assertEquals(
        "refused: kiln.device=vulkan: the native library of org.lwjgl:lwjgl-vma cannot be loaded"
            + " (java.lang.UnsatisfiedLinkError: Failed to locate library: "
            + System.mapLibraryName("lwjgl_vma")
            + "); add org.lwjgl:lwjgl-vma:3.4.3:"
            + classifier
            + " to the class or module path\n",
        output.out());
    assertEquals(List.of(), output.log());
  }

  @Test
  void theClassifierOfEachPlatformIsLwjgls() {
    assertEquals("natives-linux", LwjglNatives.classifier("Linux", "amd64"));
    assertEquals("natives-linux-arm64", LwjglNatives.classifier("Linux", "aarch64"));
    assertEquals("natives-linux-riscv64", LwjglNatives.classifier("Linux", "riscv64"));
    assertEquals("natives-windows", LwjglNatives.classifier("Windows 11", "amd64"));
    assertEquals("natives-windows-arm64", LwjglNatives.classifier("Windows 11", "aarch64"));
    assertEquals("natives-windows-x86", LwjglNatives.classifier("Windows 10", "x86"));
    assertEquals("natives-macos", LwjglNatives.classifier("Mac OS X", "x86_64"));
    assertEquals("natives-macos-arm64", LwjglNatives.classifier("Mac OS X", "aarch64"));
    assertEquals("natives-freebsd", LwjglNatives.classifier("FreeBSD", "amd64"));
    assertNull(LwjglNatives.classifier("SunOS", "amd64"));
    assertNull(LwjglNatives.classifier("Linux", "s390x"));
  }
}
