package dev.kiln.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.FreshJvm;
import dev.kiln.Gpu;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.internal.Dispatch;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dkiln.startupTrace=true} prints the stages of opening a device and of the first launch,
 * once, after the first launch; without it, nothing. Each case is a fresh JVM running {@link
 * #main}.
 */
class StartupTraceTest {
  /**
   * Opens the CPU backend and launches a hand-written kernel three times; with the argument {@code
   * asides}, first begins work on two other threads: one records itself after 200 ms, the other
   * never does.
   */
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("asides")) {
      long start = StartupTrace.asideBegins();
      Thread.ofPlatform()
          .start(
              () -> {
                try {
                  Thread.sleep(200);
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
                StartupTrace.meanwhile("slow work", start);
              });
      StartupTrace.asideBegins(); // never recorded
    }
    KernelSpec spec =
        new KernelSpec(
            MethodHandles.lookup(),
            StartupTraceTest.class,
            "touch",
            "none.spv",
            new int[] {64, 1, 1},
            List.of(KernelSpec.Param.buffer("out", NumericType.INT, Access.WRITE)),
            arguments -> ((int[]) arguments[0])[Gpu.globalId(0)] = 1);
    try (Device device = Device.open("cpu")) {
      for (int launch = 0; launch < 3; launch++) {
        Dispatch.run(device, spec, 100, (Object) new int[100]);
      }
    }
  }

  private static String standardError(String... flags) throws IOException, InterruptedException {
    return standardError(List.of(flags), List.of());
  }

  private static String standardError(List<String> flags, List<String> args)
      throws IOException, InterruptedException {
    return FreshJvm.run(StartupTraceTest.class, flags, FreshJvm.classPath(), Map.of(), args).err();
  }

  @Test
  void theFirstLaunchPrintsEachStageOnce() throws Exception {
    String err = standardError("-Dkiln.startupTrace=true");
    List<String> stages =
        err.lines().filter(line -> line.startsWith("  ")).map(String::strip).toList();
    assertEquals(
        1,
        err.lines().filter(line -> line.equals("Kiln start-up (kiln.startupTrace):")).count(),
        err);
    assertEquals(5, stages.size(), err);
    assertTrue(
        stages.get(0).matches("before Device\\.open\\(\\) +\\d+ ms since the JVM started"),
        stages.get(0));
    String[] names = {
      "Device.open() returns",
      "first launch: launcher called",
      "first launch: CPU twin looked up",
      "first launch: ran"
    };
    for (int k = 0; k < names.length; k++) {
      assertTrue(
          stages
              .get(k + 1)
              .matches(
                  java.util.regex.Pattern.quote(names[k])
                      + " +\\d+\\.\\d ms +\\d+ ms since the JVM started"),
          stages.get(k + 1));
    }
  }

  /**
   * Work on other threads is listed after the stages; the report waits a second for work still
   * running, then says how much is left.
   */
  @Test
  void workOnOtherThreadsIsListedAfterTheStages() throws Exception {
    List<String> lines =
        standardError(List.of("-Dkiln.startupTrace=true"), List.of("asides"))
            .lines()
            .dropWhile(line -> !line.equals(" meanwhile, on other threads:"))
            .toList();
    assertEquals(3, lines.size(), String.join("\n", lines));
    assertTrue(
        lines.get(1).matches("  slow work +(\\d+)\\.\\d ms +\\d+ ms since the JVM started"),
        lines.get(1));
    double took = Double.parseDouble(lines.get(1).replaceAll("  slow work +([0-9.]+) ms.*", "$1"));
    assertTrue(took >= 200, lines.get(1));
    assertEquals("  (1 still running after a second's wait)", lines.get(2));
  }

  /**
   * Without the flag the run prints nothing at all: no trace and no log line either, since opening
   * a device and launching log nothing (the first java.util.logging line costs more than the CPU
   * backend's whole start).
   */
  @Test
  void withoutTheFlagNothingIsPrinted() throws Exception {
    assertEquals(
        List.of(),
        standardError()
            .lines()
            .filter(line -> !line.startsWith("Picked up JAVA_TOOL_OPTIONS"))
            .toList());
  }
}
