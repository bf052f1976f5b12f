package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.FreshJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JVMs started at once on a machine where LWJGL's natives are not extracted yet all open Vulkan:
 * LWJGL extracts them into one shared folder, and without {@link NativesLock} one JVM in ten died
 * of SIGBUS loading a library that another was writing again.
 */
class ConcurrentStartTest {
  private static final int JVMS = 8;

  @Test
  void jvmsStartedTogetherOnAFreshMachineAllOpenVulkan(@TempDir Path dir) throws Exception {
    TestBackends.open(false).close(); // skips (or fails with kiln.noSkips) where there is no Vulkan
    for (int round = 0; round < 2; round++) {
      Path extracted = dir.resolve("natives-" + round); // as LWJGL finds a fresh machine
      List<String> flags =
          List.of(
              "--enable-native-access=ALL-UNNAMED",
              "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM",
              "-Dorg.lwjgl.system.SharedLibraryExtractPath=" + extracted);
      ExecutorService starts = Executors.newFixedThreadPool(JVMS);
      try {
        List<Future<FreshJvm>> jvms =
            IntStream.range(0, JVMS)
                .mapToObj(
                    k ->
                        starts.submit(
                            () ->
                                FreshJvm.run(
                                    FallbackReasonsTest.class,
                                    flags,
                                    FreshJvm.classPath(),
                                    Map.of(),
                                    List.of("vulkan"))))
                .toList();
        for (Future<FreshJvm> jvm : jvms) {
          assertEquals("vulkan\n", jvm.get().out());
        }
      } finally {
        starts.shutdownNow();
      }
    }
  }
}
