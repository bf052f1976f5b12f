package dev.kiln.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden files under {@code src/test/resources/golden}. Run the tests with {@code
 * -Dkiln.updateGoldens=true} to rewrite them from what the processor produces now; review the diff
 * before committing it.
 */
public final class Goldens {
  private static final Path SOURCE_DIR = Path.of("src/test/resources/golden");

  private Goldens() {}

  public static void assertMatches(String name, String actual) {
    if (Boolean.getBoolean("kiln.updateGoldens")) {
      try {
        Path golden = SOURCE_DIR.resolve(name);
        Files.createDirectories(golden.getParent());
        Files.writeString(golden, actual, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return;
    }
    assertWithMessage("golden file %s (rerun with -Dkiln.updateGoldens=true to update it)", name)
        .that(actual)
        .isEqualTo(Kernels.text("golden/" + name));
  }
}
