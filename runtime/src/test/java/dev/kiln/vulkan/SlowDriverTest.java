package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.FreshJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The opening thread waits, bounded, for the warmup thread that has the Vulkan loader load its
 * drivers, before it lets LWJGL load the loader (VulkanWarmup says why: the two deadlocked in
 * glibc's dynamic linker). The driver here is a fake one, built with gcc for the test, that the
 * loader finds through {@code VK_DRIVER_FILES}: its library's constructor sleeps, so the drivers
 * thread stays inside {@code dlopen} for that long, and then offers no Vulkan entry point, so the
 * loader finds no driver. Each case is a fresh JVM running {@link #main}.
 */
class SlowDriverTest {
  /** Opens Vulkan, and prints the milliseconds that took and how it ended. */
  public static void main(String[] args) {
    long start = System.nanoTime();
    String outcome;
    try (Device device = Device.open("vulkan")) {
      outcome = "opened " + device.name();
    } catch (IllegalStateException e) {
      outcome = e.getMessage();
    }
    System.out.println(
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms: " + outcome);
  }

  /**
   * A driver whose library takes {@code seconds} to load, and its manifest, for {@code
   * VK_DRIVER_FILES}.
   */
  private static Map<String, String> slowDriver(Path dir, int seconds) throws Exception {
    TestBackends.open(false)
        .close(); // skips (or fails with kiln.noSkips) where there is no Vulkan loader
    Assumptions.assumeTrue(
        Runtime.version().feature() >= 22, "the drivers load on a thread of their own on JDK 22+");
    Path source = dir.resolve("slow_driver.c");
    Files.writeString(
        source,
        """
        #include <unistd.h>
        __attribute__((constructor)) static void load_slowly(void) { sleep(%d); }
        void *vk_icdGetInstanceProcAddr(void *instance, const char *name) { return 0; }
        """
            .formatted(seconds));
    Path library = dir.resolve("libslow_driver.so");
    Process gcc;
    try {
      gcc =
          new ProcessBuilder("gcc", "-shared", "-fPIC", "-o", library.toString(), source.toString())
              .redirectErrorStream(true)
              .start();
    } catch (java.io.IOException e) {
      throw TestBackends.skip(
          "gcc, which builds the fake driver, cannot be run: " + e.getMessage());
    }
    String printed = new String(gcc.getInputStream().readAllBytes());
    assertEquals(0, gcc.waitFor(), printed);
    Path manifest = dir.resolve("slow_driver.json");
    Files.writeString(
        manifest,
        """
        {"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.1.0"}}
        """
            .formatted(library));
    return Map.of("VK_DRIVER_FILES", manifest.toString(), "VK_ICD_FILENAMES", manifest.toString());
  }

  private static String open(Map<String, String> environment, String... flags) throws Exception {
    List<String> all =
        new java.util.ArrayList<>(
            List.of(
                "--enable-native-access=ALL-UNNAMED",
                "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"));
    all.addAll(List.of(flags));
    return FreshJvm.run(SlowDriverTest.class, all, FreshJvm.classPath(), environment, List.of())
        .out()
        .strip();
  }

  private static long millis(String printed) {
    return Long.parseLong(printed.substring(0, printed.indexOf(" ms: ")));
  }

  @Test
  void theOpeningThreadWaitsForTheDriversThenReportsWhatTheLoaderFound(@TempDir Path dir)
      throws Exception {
    String printed = open(slowDriver(dir, 2));
    assertTrue(
        printed.endsWith(
            " ms: kiln.device=vulkan: vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER"
                + " (the Vulkan loader found no driver)"),
        printed);
    assertTrue(millis(printed) >= 2000, printed);
  }

  @Test
  void aDriverThatDoesNotFinishLoadingIsGivenUpOnAfterTheTimeout(@TempDir Path dir)
      throws Exception {
    String printed = open(slowDriver(dir, 8), "-Dkiln.driverTimeout=2");
    assertTrue(
        printed.endsWith(
            " ms: kiln.device=vulkan: the Vulkan loader (libvulkan.so.1) has not finished loading"
                + " its drivers after 2 s: a driver hangs while it initializes; -Dkiln.driverTimeout=S waits S seconds"),
        printed);
    assertTrue(millis(printed) >= 2000 && millis(printed) < 6_000, printed);
  }
}
