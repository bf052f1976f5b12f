package dev.kiln.samples.startup;

import dev.kiln.samples.SaxpyKernels;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.TestDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline cache survives the device on disk, is loaded by the next one, and corruption is survived. */
class PipelineCacheTest {
  private String previous;

  @AfterEach
  void restore() {
    if (previous == null) {
      System.clearProperty("kiln.pipelineCache");
    } else {
      System.setProperty("kiln.pipelineCache", previous);
    }
  }

  private static void runSaxpy(Device device) {
    float[] y = {1f, 2f, 3f};
    SaxpyKernels.saxpy(device, 3, 2f, new float[] {1f, 1f, 1f}, y);
    Bits.assertSameBits("saxpy", new float[] {3f, 4f, 5f}, y);
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }

  @Test
  void theNextDeviceLoadsTheCacheAndACorruptOneIsIgnored(@TempDir Path dir) throws IOException {
    previous = System.getProperty("kiln.pipelineCache");
    System.setProperty("kiln.pipelineCache", dir.toString());
    try (Device first = TestDevices.vulkan()) {
      assertEquals(0, first.pipelineCacheLoadedBytes());
      runSaxpy(first);
    }
    List<Path> written = files(dir);
    assertEquals(1, written.size(), "one cache file per device: " + written);
    long size = Files.size(written.getFirst());
    assertTrue(size > 0);

    try (Device second = TestDevices.vulkan()) {
      assertEquals(size, second.pipelineCacheLoadedBytes());
      runSaxpy(second);
    }

    Files.write(written.getFirst(), "not a pipeline cache at all, but long enough to have a header".getBytes());
    try (Device third = TestDevices.vulkan()) {
      assertEquals(0, third.pipelineCacheLoadedBytes());
      runSaxpy(third);
    }
    try (Device fourth = TestDevices.vulkan()) {
      assertTrue(fourth.pipelineCacheLoadedBytes() > 0, "the corrupt file was replaced by a good one");
    }
  }

  /** {@link CacheProbe}'s output in a new JVM that keeps its pipeline cache in {@code dir}. */
  private static String probe(Path dir) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM",
        "-Dkiln.pipelineCache=" + dir, "-cp", System.getProperty("java.class.path"), CacheProbe.class.getName())
        .redirectErrorStream(true)
        .start();
    String output = new String(process.getInputStream().readAllBytes());
    assertEquals(0, process.waitFor(), output);
    return output;
  }

  @Test
  void aFreshJvmLoadsTheCacheTheLastOneLeft(@TempDir Path dir) throws Exception {
    TestDevices.vulkan().close(); // skips (or fails in CI) without Vulkan
    assertTrue(probe(dir).contains("loaded 0"));
    String second = probe(dir);
    assertTrue(second.matches("(?s).*loaded [1-9][0-9]*.*"), second);
  }
}
