package dev.kiln.samples.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** spirv-val over the modules the processor wrote. */
public final class SpirvVal {
  private SpirvVal() {}

  /**
   * Runs spirv-val on every module under {@code dir}; the number it rejects, each printed. Skips the
   * test (fails it in CI) where spirv-val is not installed or {@code dir} is not there.
   */
  public static int invalidModules(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) { // run from jars, as on the GPU machine, which has no spirv-val either
      throw TestDevices.skip("no modules to validate: " + dir.toAbsolutePath() + " is not here (the build's output,"
          + " which tests run from jars lack)");
    }
    List<Path> modules;
    try (Stream<Path> files = Files.walk(dir)) {
      modules = files.filter(file -> file.toString().endsWith(".spv")).toList();
    }
    assertTrue(!modules.isEmpty(), "no modules under " + dir);
    int invalid = 0;
    for (Path module : modules) {
      Process process;
      try {
        process = new ProcessBuilder("spirv-val", "--target-env", "vulkan1.1", module.toString())
            .redirectErrorStream(true).start();
      } catch (java.io.IOException notInstalled) {
        throw TestDevices.skip("spirv-val is not installed (Debian: apt-get install spirv-tools, or bash .ci/spirv-tools.sh for one that knows cooperative matrices): "
            + notInstalled.getMessage());
      }
      String output = new String(process.getInputStream().readAllBytes());
      if (process.waitFor() != 0) {
        System.out.println("spirv-val rejects " + module + ":\n" + output);
        invalid++;
      }
    }
    return invalid;
  }
}
