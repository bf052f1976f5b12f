package dev.kiln.samples.fuzz;

import dev.kiln.samples.testing.SpirvVal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kiln's fuzzer, odd kernels ({@link RandomKernels#odd}; docs/FUZZING.md): a kernel with one construct
 * the language may reject must never crash Kiln — no {@code kiln.internal}, every Kiln error with
 * its id, a line inside the kernel and a {@code Fix:} — and the ones accepted, compiled again
 * without the rejected ones, must give launchers that compile and modules spirv-val accepts.
 * {@code -Dkiln.fuzzOdd=N} and {@code -Dkiln.fuzzSeed=S} run other amounts and seeds.
 */
class OddKernelFuzzTest {
  private static final int ODD = Integer.getInteger("kiln.fuzzOdd", 240);
  private static final long SEED = Long.getLong("kiln.fuzzSeed", 20261130L);

  @Test
  void oddKernelsNeverCrashKiln(@TempDir Path dir) throws Exception {
    Map<String, String> rejected = new TreeMap<>(); // kernel -> its first error's id, or "javac"
    List<String> problems = new ArrayList<>();
    // javac reports flow errors (unreachable code) only once a compile has no attribution errors, and
    // Kiln's body errors only once javac has none: compile again without the rejected kernels until
    // a compile is clean, each pass rejecting more
    Path last = null;
    for (int pass = 0; ; pass++) {
      int before = rejected.size();
      FuzzCorpus.Corpus corpus = FuzzCorpus.corpus("Odd", ODD, new RandomKernels(new Random(SEED + 2))::odd, rejected.keySet());
      last = dir.resolve("pass" + pass);
      List<Diagnostic<? extends JavaFileObject>> errors = FuzzJavac.compile(last, corpus);
      if (errors.isEmpty()) {
        break;
      }
      Map<String, Set<Boolean>> byKiln = new TreeMap<>(); // kernel -> whether Kiln, javac or both reported
      for (Diagnostic<? extends JavaFileObject> error : errors) {
        String message = error.getMessage(Locale.ROOT);
        String kernel = kernelAt(corpus, error);
        if (kernel != null) {
          byKiln.computeIfAbsent(kernel, k -> new HashSet<>()).add(message.startsWith("[kiln."));
        }
        if (message.startsWith("[kiln.internal]") || kernel == null
            || message.startsWith("[kiln.") && !message.matches("(?s).*\\. Fix: .+\\.$")) {
          problems.add(error.getSource().getName() + ":" + error.getLineNumber() + ": " + message);
        } else {
          rejected.putIfAbsent(kernel, message.startsWith("[kiln.") ? message.substring(1, message.indexOf(']')) : "javac");
        }
      }
      byKiln.forEach((kernel, sources) -> {
        if (sources.size() == 2) {
          problems.add(kernel + ": Kiln reported errors beside javac's own");
        }
      });
      assertTrue(problems.isEmpty(), () -> "Kiln crashed or reported badly:\n" + String.join("\n", problems));
      assertTrue(rejected.size() > before, () -> "errors in kernels already rejected: " + describe(errors));
    }
    assertEquals(0, SpirvVal.invalidModules(last), "modules spirv-val rejects");
    Map<String, Integer> byKind = new TreeMap<>();
    rejected.values().forEach(kind -> byKind.merge(kind, 1, Integer::sum));
    System.out.printf("kernel fuzzer (seed %d): %d odd kernels, %d accepted (valid modules, launchers compile),"
        + " %d rejected with positioned errors %s, 0 internal errors%n", SEED, ODD, ODD - rejected.size(),
        rejected.size(), byKind);
  }

  /** The kernel whose lines hold {@code error}, or null. */
  private static String kernelAt(FuzzCorpus.Corpus corpus, Diagnostic<? extends JavaFileObject> error) {
    if (error.getSource() == null) {
      return null;
    }
    String file = Path.of(error.getSource().getName()).getFileName().toString();
    return FuzzCorpus.kernelAt(corpus, Integer.parseInt(file.replaceAll("\\D", "")), error.getLineNumber());
  }

  private static String describe(List<Diagnostic<? extends JavaFileObject>> errors) {
    Set<String> lines = new HashSet<>();
    errors.stream().limit(20).forEach(error -> lines.add(error.getSource().getName() + ":" + error.getLineNumber()
        + ": " + error.getMessage(Locale.ROOT)));
    return errors.size() + " errors, among them:\n" + String.join("\n", lines);
  }
}
