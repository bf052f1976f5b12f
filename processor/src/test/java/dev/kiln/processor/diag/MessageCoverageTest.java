package dev.kiln.processor.diag;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every message id is provoked by a test, as javac's {@code CheckExamples} requires of its
 * diagnostics, or listed below with the reason it is not; and the table of {@code
 * docs/DIAGNOSTICS.md} lists exactly the ids there are.
 */
class MessageCoverageTest {
  /** Ids no test provokes, and why. A covered id must leave this list. */
  private static final Map<String, String> NOT_PROVOKED =
      Map.of(
          "kiln.internal",
              "a bug in Kiln by definition; OddKernelFuzzTest checks that none of 2,000 odd kernels gets it",
          "kiln.kernel.outOfMemory",
              "needs javac to run out of heap inside a kernel's compile, which a test in this JVM cannot",
          "kiln.unsupported.returnValue",
              "defensive: a kernel that returns a value is refused by kiln.kernel.notVoid first");

  /**
   * {@code // ERROR: [id]} or {@code // WARNING: [id]} in a fixture, or {@code "[id]} asserted by a
   * test.
   */
  private static final Pattern PROVOKED =
      Pattern.compile("(?:(?:ERROR|WARNING): |\")\\[(kiln\\.[\\w.]+)]");

  private static final Pattern TABLE_ROW = Pattern.compile("(?m)^\\| (`kiln\\.[^|]+)\\|");
  private static final Pattern CODE = Pattern.compile("`([\\w.]+)`");

  private static Set<String> ids() {
    return Arrays.stream(Message.values())
        .map(Message::id)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void everyMessageIsProvokedByATestOrSaysWhyNot() {
    Set<String> provoked = new TreeSet<>();
    for (Path root : new Path[] {Path.of("src/test"), Path.of("../samples/src/test")}) {
      try (Stream<Path> files = Files.walk(root)) {
        files
            .filter(Files::isRegularFile)
            .filter(f -> f.toString().endsWith(".java"))
            .forEach(
                file -> {
                  Matcher id = PROVOKED.matcher(read(file));
                  while (id.find()) {
                    provoked.add(id.group(1));
                  }
                });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    provoked.remove("kiln.internal"); // the fuzzer names it to check that it never appears
    Set<String> unprovoked = ids();
    unprovoked.removeAll(provoked);
    assertWithMessage("ids no test provokes")
        .that(unprovoked)
        .containsExactlyElementsIn(NOT_PROVOKED.keySet());
  }

  @Test
  void theDiagnosticsPageListsEveryIdOnce() {
    Matcher row = TABLE_ROW.matcher(read(Path.of("../docs/DIAGNOSTICS.md")));
    Set<String> listed = new LinkedHashSet<>();
    java.util.List<String> repeated = new java.util.ArrayList<>();
    while (row.find()) {
      String prefix = "";
      Matcher code = CODE.matcher(row.group(1));
      while (code.find()) {
        String id = code.group(1).startsWith("kiln.") ? code.group(1) : prefix + code.group(1);
        prefix = id.substring(0, id.lastIndexOf('.') + 1);
        if (!listed.add(id)) {
          repeated.add(id);
        }
      }
    }
    assertWithMessage("ids listed twice").that(repeated).isEmpty();
    assertWithMessage("docs/DIAGNOSTICS.md's table").that(listed).containsExactlyElementsIn(ids());
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
