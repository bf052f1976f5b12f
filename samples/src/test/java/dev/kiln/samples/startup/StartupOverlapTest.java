package dev.kiln.samples.startup;

import dev.kiln.samples.testing.TestDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The work the first {@code Device.open()} starts on other threads (the runtime's VulkanWarmup):
 * LWJGL's bindings, and on JDK 22+ with native access the Vulkan loader's drivers. Each runs once per
 * JVM, however many threads open devices at once, none deadlocks, and the start-up trace lists what
 * each did. Each case is a fresh JVM running {@link WarmupProbe}.
 */
class StartupOverlapTest {
  private static final String DRIVERS = "Vulkan drivers loaded (";
  private static final String BINDINGS = "LWJGL's bindings made";
  /** How the trace starts its line for work still running when it reports: "(N still running ...)". */
  private static final String STILL_RUNNING = "(";

  /**
   * The class path of this JVM as a multi-release jar reads on this JDK: where the runtime is a
   * folder of classes (a build that stops before {@code package}), its {@code META-INF/versions/22}
   * comes first on JDK 22+.
   */
  private static String classPath() {
    String path = System.getProperty("java.class.path");
    Path runtime = Path.of(Device.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    Path versioned = runtime.resolve("META-INF/versions/22");
    return Runtime.version().feature() >= 22 && Files.isDirectory(versioned)
        ? versioned + File.pathSeparator + path
        : path;
  }

  /**
   * Standard output and standard error (this order) of {@link WarmupProbe} on {@code threads} threads,
   * with {@code flags}.
   */
  private static List<String> probe(boolean nativeAccess, int threads, String... flags) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM", "-Dkiln.startupTrace=true"));
    if (nativeAccess) {
      command.add("--enable-native-access=ALL-UNNAMED");
    }
    command.addAll(List.of(flags));
    command.addAll(List.of("-cp", classPath(), WarmupProbe.class.getName(), Integer.toString(threads)));
    Process process = new ProcessBuilder(command).start();
    byte[] out = process.getInputStream().readAllBytes();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(3, TimeUnit.MINUTES), "the probe hangs:\n" + err);
    assertEquals(0, process.exitValue(), err);
    return List.of(new String(out, StandardCharsets.UTF_8), err);
  }

  private static long count(String err, String work) {
    return err.lines().filter(line -> line.startsWith("  " + work)).count();
  }

  @Test
  void fourThreadsOpeningAtOnceStartEachWarmupOnceAndAllFinish() throws Exception {
    TestDevices.vulkan().close(); // skips (or fails in CI) without Vulkan
    for (int run = 0; run < 3; run++) {
      List<String> output = probe(true, 4);
      String err = output.get(1);
      assertEquals("saxpy ok\n".repeat(5), output.get(0), err);
      assertEquals(1, err.lines().filter(line -> line.equals(" meanwhile, on other threads:")).count(), err);
      assertEquals(1, count(err, BINDINGS), err);
      assertEquals(Runtime.version().feature() >= 22 ? 1 : 0, count(err, DRIVERS), err);
      assertEquals(0, count(err, "Vulkan drivers:") + count(err, "LWJGL's bindings:") + count(err, STILL_RUNNING), err);
    }
  }

  /**
   * Without native access for Kiln, the drivers are not loaded ahead (the FFM call would add a JDK
   * warning naming Kiln); the bindings still are.
   */
  @Test
  void withoutNativeAccessKilnMakesNoFfmCallAndNoWarningNamesIt() throws Exception {
    TestDevices.vulkan().close();
    List<String> output = probe(false, 1);
    String err = output.get(1);
    assertEquals("saxpy ok\n".repeat(2), output.get(0), err);
    assertEquals(0, count(err, DRIVERS), err);
    assertEquals(1, count(err, BINDINGS), err);
    assertEquals(List.of(), err.lines().filter(line -> line.contains("dev.kiln")).toList());
  }

  /** {@code -Dkiln.warmup=false} starts no thread: the trace has no "meanwhile" section, and all runs right. */
  @Test
  void theWarmupCanBeTurnedOff() throws Exception {
    TestDevices.vulkan().close();
    List<String> output = probe(true, 2, "-Dkiln.warmup=false");
    String err = output.get(1);
    assertEquals("saxpy ok\n".repeat(3), output.get(0), err);
    assertTrue(err.contains("Kiln start-up (kiln.startupTrace):"), err);
    assertEquals(0, err.lines().filter(line -> line.contains("meanwhile")).count(), err);
  }
}
