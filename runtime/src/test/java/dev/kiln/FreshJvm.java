package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a test's {@code main} printed in a fresh JVM (this JVM's {@code java}), which must exit with 0:
 * for what only a new process shows, such as start-up, or a class path with a piece taken away.
 *
 * @param out its standard output
 * @param err its standard error
 */
public record FreshJvm(String out, String err) {
  /**
   * Runs {@code main} with {@code flags}, {@code classPath}, {@code environment} added to this one's,
   * and {@code args}.
   */
  public static FreshJvm run(Class<?> main, List<String> flags, String classPath, Map<String, String> environment,
      List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(flags);
    command.addAll(List.of("-cp", classPath, main.getName()));
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), err);
    return new FreshJvm(out, err);
  }

  /** This JVM's class path, for a run that needs nothing taken away. */
  public static String classPath() {
    return System.getProperty("java.class.path");
  }
}
