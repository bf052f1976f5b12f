package dev.kiln.samples.fusion;

import dev.kiln.samples.testing.KilnJavac;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Compiles random groups with javac and the Kiln processor. Kept apart from the test so that a
 * runtime without javac (the GPU machine's) can run groups compiled elsewhere.
 */
final class GroupCompiler {
  private static final Pattern ERROR = Pattern.compile("^\\[(kiln\\.[a-zA-Z.]+)] .*group '([gm]\\d+)'");

  private GroupCompiler() {}

  /**
   * Compiles the groups, collects the refused ones with the kind of their first error, and compiles
   * again with those left unfused into {@code work/second}; returns group name to error kind.
   */
  static Map<String, String> compileBoth(Path work, List<List<RandomGroups.Group>> classes) throws IOException {
    Map<String, String> refused = new TreeMap<>();
    for (Diagnostic<? extends JavaFileObject> error : compile(work.resolve("first"), classes, Set.of())) {
      Matcher matcher = ERROR.matcher(error.getMessage(Locale.ROOT));
      assertTrue(matcher.find() && matcher.group(1).startsWith("kiln.fusion."),
          () -> "not a fusion error: " + error.getMessage(Locale.ROOT));
      refused.putIfAbsent(matcher.group(2), matcher.group(1));
    }
    List<Diagnostic<? extends JavaFileObject>> second = compile(work.resolve("second"), classes, refused.keySet());
    assertTrue(second.isEmpty(), () -> "with the refused groups left unfused the sources must compile: " + second);
    return refused;
  }

  /**
   * Compiles every class into {@code out}; returns the errors. The classes are independent: one
   * javac per core compiles its share of them, at once (javac alone uses one core, and these
   * compilations were most of this test's time on lavapipe's 2-core CI machine).
   */
  private static List<Diagnostic<? extends JavaFileObject>> compile(Path out, List<List<RandomGroups.Group>> classes,
      Set<String> unfused) throws IOException {
    Path sources = out.resolve("src/fuzz");
    Files.createDirectories(sources);
    int javacs = Math.min(classes.size(), Runtime.getRuntime().availableProcessors());
    List<List<Path>> shares = new ArrayList<>();
    for (int j = 0; j < javacs; j++) {
      shares.add(new ArrayList<>());
    }
    for (int c = 0; c < classes.size(); c++) {
      Path file = sources.resolve("Groups" + c + ".java");
      Files.writeString(file, RandomGroups.classSource("fuzz", "Groups" + c, classes.get(c), unfused));
      shares.get(c % javacs).add(file);
    }
    List<Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(javacs)) {
      List<Future<List<Diagnostic<? extends JavaFileObject>>>> compiling = new ArrayList<>();
      for (List<Path> share : shares) {
        compiling.add(pool.submit(() -> KilnJavac.compile(out, share)));
      }
      for (Future<List<Diagnostic<? extends JavaFileObject>>> share : compiling) {
        errors.addAll(share.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    }
    return errors;
  }
}
