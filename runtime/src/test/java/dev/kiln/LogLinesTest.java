package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every line Kiln logs, whole: its level, its source as {@code java.util.logging} names it (the
 * class and method that logged, not Kiln's log helper) and its text. The fallback to the CPU
 * backend, one line per reason, is under {@code FallbackReasonsTest}.
 */
class LogLinesTest {
  /**
   * The records of the logger {@code dev.kiln} while open, each as "LEVEL source.method: text". The
   * source is read as the record is published: {@code java.util.logging} finds it on the stack of
   * the thread that logs.
   */
  private static final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("dev.kiln");
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final java.util.logging.Level level = logger.getLevel();

    LogCapture() {
      logger.setLevel(
          java.util.logging.Level.ALL); // DEBUG lines too: a test names each line's level
      logger.setUseParentHandlers(false); // captured, not printed in the build's output
      logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
      lines.add(
          record.getLevel()
              + " "
              + record.getSourceClassName()
              + "."
              + record.getSourceMethodName()
              + ": "
              + new SimpleFormatter().formatMessage(record));
    }

    List<String> lines() {
      return List.copyOf(lines);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
      logger.setUseParentHandlers(true);
      logger.setLevel(level);
    }
  }

  /**
   * With the validation layer on, opening a device says so at DEBUG ({@code FINE}), which a test
   * run or a program does not print unless asked; without it, nothing is logged (StartupTraceTest).
   */
  @Test
  void aDeviceOpenedWithValidationSaysSoAtDebug() {
    Assumptions.assumeTrue(
        Boolean.getBoolean("kiln.validation"), "the build runs tests with kiln.validation=true");
    try (LogCapture log = new LogCapture();
        Device device = TestVulkan.open()) {
      assertEquals(
          List.of(
              "FINE dev.kiln.Device.open: Kiln device: "
                  + device.name()
                  + " (vulkan, validation on)"),
          log.lines());
    }
  }

  /** One warning per place of allocation, naming it; the memory is freed (ArrayMemoryTest). */
  @Test
  void anArrayDroppedUnclosedIsReportedOncePerPlace() throws InterruptedException {
    try (LogCapture log = new LogCapture();
        Device device = Device.open("cpu")) {
      long before = DeviceArray.leaked();
      int line = 0;
      for (int i = 0; i < 100; i++) {
        line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
        device.floats(16); // dropped without close
      }
      for (int i = 0; i < 200 && DeviceArray.leaked() < before + 100; i++) {
        System.gc();
        Thread.sleep(20);
      }
      assertEquals(before + 100, DeviceArray.leaked());
      FloatArray closed = device.floats(16);
      closed.close();
      assertEquals(
          List.of(
              "WARNING dev.kiln.DeviceArray$Memory.run: FloatArray of length 16 on "
                  + device.name()
                  + " was never closed; Kiln frees its memory now that it is unreachable, once no batch holds it. It was allocated at"
                  + " dev.kiln.LogLinesTest.anArrayDroppedUnclosedIsReportedOncePerPlace(LogLinesTest.java:"
                  + line
                  + ")."
                  + " Fix: close device arrays (try-with-resources) to free their memory at once; arrays allocated there are"
                  + " freed without a message from now on; -Dkiln.arrayTrace=true shows the whole stack of the allocation"),
          log.lines());
    }
  }

  /** Runs {@code body} with {@code -Dkiln.pipelineCache} set to {@code directory}. */
  private static void withPipelineCache(Path directory, Runnable body) {
    String previous = System.getProperty("kiln.pipelineCache");
    System.setProperty("kiln.pipelineCache", directory.toString());
    try {
      body.run();
    } finally {
      if (previous == null) {
        System.clearProperty("kiln.pipelineCache");
      } else {
        System.setProperty("kiln.pipelineCache", previous);
      }
    }
  }

  private static List<Path> files(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.toList();
    }
  }

  /**
   * A cache file that is not one of this device's is ignored with a line naming the file and the
   * device.
   */
  @Test
  void aCacheOfAnotherKindIsIgnoredWithALine(@TempDir Path dir) throws IOException {
    withPipelineCache(dir, () -> TestVulkan.open().close()); // writes the cache file
    List<Path> written = files(dir);
    assertEquals(1, written.size(), written.toString());
    Files.writeString(
        written.getFirst(), "not a pipeline cache, though long enough to hold a cache's header");
    withPipelineCache(
        dir,
        () -> {
          try (LogCapture log = new LogCapture();
              Device device = TestVulkan.open()) {
            assertEquals(
                List.of(
                    "INFO dev.kiln.vulkan.PipelineCache.read: Ignoring pipeline cache "
                        + written.getFirst()
                        + ": not a cache of "
                        + device.name()),
                log.lines().stream().filter(line -> !line.contains("Kiln device")).toList());
          }
        });
  }

  /**
   * A cache that cannot be written (its directory is a file) is said, and closing the device goes
   * on.
   */
  @Test
  void aCacheThatCannotBeWrittenIsSaid(@TempDir Path dir) throws IOException {
    Path blocker =
        Files.writeString(dir.resolve("blocker"), "a file where the cache's directory should be");
    withPipelineCache(
        blocker,
        () -> {
          List<String> lines;
          try (LogCapture log = new LogCapture()) {
            TestVulkan.open().close();
            lines = log.lines().stream().filter(line -> !line.contains("Kiln device")).toList();
          }
          assertEquals(1, lines.size(), lines.toString());
          assertTrue(
              lines
                  .getFirst()
                  .matches(
                      Pattern.quote(
                              "INFO dev.kiln.vulkan.PipelineCache.close: Cannot write"
                                  + " pipeline cache "
                                  + blocker
                                  + "/pipelines-")
                          + "[0-9a-f]{32}-[0-9]+"
                          + Pattern.quote(
                              ".bin: java.nio.file.FileAlreadyExistsException: " + blocker)),
              lines.getFirst());
        });
  }
}
