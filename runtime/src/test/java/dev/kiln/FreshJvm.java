package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a test's {@code main} printed in a fresh JVM (this JVM's {@code java}), which must exit with
 * 0 within {@link #LIMIT} (a JVM still running then is killed and the test fails, where it would
 * otherwise stall the build): for what only a new process shows, such as start-up, or a class path
 * with a piece taken away.
 *
 * @param out its standard output
 * @param err its standard error
 */
public record FreshJvm(String out, String err) {
  /** How long a fresh JVM may run. */
  public static final Duration LIMIT = Duration.ofSeconds(90);

  /**
   * Runs {@code main} with {@code flags}, {@code classPath}, {@code environment} added to this
   * one's, and {@code args}.
   */
  public static FreshJvm run(
      Class<?> main,
      List<String> flags,
      String classPath,
      Map<String, String> environment,
      List<String> args)
      throws IOException, InterruptedException {
    // no hsperfdata file: JVMs started at once in containers can meet one another's, and the JVM
    // then
    // prints a warning on standard output, which the tests read
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-UsePerfData"));
    command.addAll(flags);
    command.addAll(List.of("-cp", classPath, main.getName()));
    command.addAll(args);
    Path out = Files.createTempFile("kiln-fresh-jvm", ".out");
    Path err = Files.createTempFile("kiln-fresh-jvm", ".err");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().putAll(environment);
      Process process = builder.start();
      boolean finished = process.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS);
      if (!finished) {
        process.destroyForcibly().waitFor();
      }
      String printed = Files.readString(out, StandardCharsets.UTF_8);
      String logged = Files.readString(err, StandardCharsets.UTF_8);
      if (!finished) {
        fail(
            main.getSimpleName()
                + " has not finished after "
                + LIMIT.toSeconds()
                + " s (hung, killed); it printed:\n"
                + printed
                + logged);
      }
      assertEquals(0, process.exitValue(), logged);
      return new FreshJvm(printed, logged);
    } finally {
      Files.delete(out);
      Files.delete(err);
    }
  }

  /**
   * This JVM's class path, for a run that needs nothing taken away, as it would read with the
   * runtime packed: where the runtime is a folder of classes (a build that stops before {@code
   * package}), its multi-release part {@code META-INF/versions/22} comes first on JDK 22+.
   */
  public static String classPath() {
    String path = System.getProperty("java.class.path");
    Path runtime =
        Path.of(Device.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    Path versioned = runtime.resolve("META-INF/versions/22");
    return Runtime.version().feature() >= 22 && Files.isDirectory(versioned)
        ? versioned + File.pathSeparator + path
        : path;
  }
}
