package dev.kiln.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of processor and runtime depend on one another only as designed: each may name the
 * packages listed for it, and nothing else. Read from the sources (imports, and qualified names
 * outside comments and strings), so a new dependency is a failing test before it is a habit.
 */
class PackageGraphTest {
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");

  /** A reference to a Kiln type: its package, then the capitalized type name. */
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(dev\\.kiln(?:\\.[a-z]\\w*)*)\\.[A-Z]");

  @Test
  void theProcessorsPipelineDependsOnlyDownward() {
    String p = "dev.kiln.processor";
    Set<String> contract = Set.of("dev.kiln.abi", "dev.kiln.annotations");
    Map<String, Set<String>> allowed =
        new TreeMap<>(
            Map.ofEntries(
                Map.entry(
                    p,
                    Set.of(
                        p + ".model",
                        p + ".lower",
                        p + ".check",
                        p + ".analysis",
                        p + ".pass",
                        p + ".pass.fuse",
                        p + ".spirv",
                        p + ".cpu",
                        p + ".launcher",
                        p + ".diag",
                        p + ".ir")),
                Map.entry(p + ".launcher", Set.of(p + ".model", p + ".ir")),
                Map.entry(p + ".spirv", Set.of(p + ".analysis", p + ".ir")),
                Map.entry(p + ".cpu", Set.of(p + ".ir")),
                Map.entry(p + ".pass.fuse", Set.of(p + ".pass", p + ".analysis", p + ".ir")),
                Map.entry(p + ".pass", Set.of(p + ".analysis", p + ".ir")),
                Map.entry(p + ".check", Set.of(p + ".analysis", p + ".diag", p + ".ir")),
                Map.entry(p + ".lower", Set.of(p + ".model", p + ".diag", p + ".ir")),
                Map.entry(p + ".model", Set.of(p + ".diag", p + ".ir")),
                Map.entry(p + ".analysis", Set.of(p + ".ir")),
                Map.entry(p + ".ir", Set.of()),
                Map.entry(p + ".diag", Set.of())));
    allowed.replaceAll((pkg, deps) -> union(deps, contract));
    assertDependencies(Path.of("src/main/java"), allowed);
  }

  @Test
  void theRuntimeDependsOneWay() {
    String k = "dev.kiln";
    Set<String> contract = Set.of(k + ".abi", k + ".annotations");
    Map<String, Set<String>> allowed =
        new TreeMap<>(
            Map.of(
                k + ".internal",
                Set.of(k, k + ".access", k + ".backend"), // what generated code calls
                k,
                Set.of(
                    k + ".access",
                    k + ".vulkan",
                    k + ".cpu",
                    k + ".backend",
                    k + ".matrix"), // the API
                k + ".matrix",
                Set.of(), // cooperative matrices: their types and the CPU's definition of them
                k + ".access",
                Set.of(k, k + ".backend"), // Device's launch entry points, for internal only
                k + ".vulkan",
                Set.of(k + ".backend"),
                k + ".cpu",
                Set.of(k + ".backend"),
                k + ".backend",
                Set.of()));
    allowed.replaceAll((pkg, deps) -> union(deps, contract));
    assertDependencies(Path.of("../runtime/src/main/java"), allowed);
    assertDependencies(Path.of("../runtime/src/main/java22"), allowed);
    assertDependencies(
        Path.of("../annotations/src/main/java"),
        Map.of(k + ".abi", Set.of(k + ".annotations"), k + ".annotations", Set.of()));
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new TreeSet<>(a);
    all.addAll(b);
    return all;
  }

  private static void assertDependencies(Path root, Map<String, Set<String>> allowed) {
    Map<String, Set<String>> found = dependencies(root);
    assertWithMessage("packages under %s", root)
        .that(allowed.keySet())
        .containsAtLeastElementsIn(found.keySet());
    found.forEach(
        (pkg, deps) ->
            assertWithMessage("what %s depends on, under %s (file: package)", pkg, root)
                .that(
                    deps.stream()
                        .filter(
                            dep -> !allowed.get(pkg).contains(dep.substring(dep.indexOf(": ") + 2)))
                        .toList())
                .isEmpty());
  }

  /** Per package, each Kiln package its files name, as "File.java: package". */
  private static Map<String, Set<String>> dependencies(Path root) {
    Map<String, Set<String>> deps = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"))
          .forEach(
              file -> {
                String source = read(file);
                Matcher declared = PACKAGE.matcher(source);
                if (!declared.find()) {
                  throw new AssertionError(file + " has no package declaration");
                }
                String pkg = declared.group(1);
                Set<String> named = deps.computeIfAbsent(pkg, any -> new TreeSet<>());
                Matcher reference = REFERENCE.matcher(code(source));
                while (reference.find()) {
                  if (!reference.group(1).equals(pkg)) {
                    named.add(file.getFileName() + ": " + reference.group(1));
                  }
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return deps;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The source without its comments, string and character literals and package declaration. */
  static String code(String source) {
    StringBuilder code = new StringBuilder();
    int i = 0;
    while (i < source.length()) {
      if (source.startsWith("//", i)) {
        i = source.indexOf('\n', i) < 0 ? source.length() : source.indexOf('\n', i);
      } else if (source.startsWith("/*", i)) {
        i = source.indexOf("*/", i + 2) + 2;
      } else if (source.startsWith("\"\"\"", i)) {
        i = source.indexOf("\"\"\"", i + 3) + 3;
      } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
        char quote = source.charAt(i++);
        while (source.charAt(i) != quote) {
          i += source.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
      } else {
        code.append(source.charAt(i++));
      }
    }
    return PACKAGE.matcher(code).replaceFirst("");
  }
}
