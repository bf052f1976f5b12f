package dev.kiln.samples.corpus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.samples.testing.KilnJavac;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Compiles one class of a ported corpus with javac and the Kiln processor; kept apart from what
 * runs the kernels, which also runs on the GPU machine, where there is no javac.
 */
final class CorpusJavac {
  private static final Pattern ERROR_ID = Pattern.compile("^\\[(kiln\\.[a-zA-Z.]+)]");

  private CorpusJavac() {}

  /**
   * What compiling one class gave: Kiln's warnings ("File.java:line kiln.id"), the groups refused
   * with their fusion error's id, and every other error as text (then nothing was compiled).
   */
  record Compiled(List<String> warnings, Map<String, String> refused, List<String> others) {}

  /**
   * Compiles {@code source}, class {@code name} of package {@code folder}, into {@code out}; where
   * only groups of {@code groups} are refused, compiles it again with those groups taken apart, so
   * that its kernels can run.
   */
  static Compiled compile(String folder, String name, String source, Set<String> groups, Path out) throws IOException {
    Path file = out.resolve("src/" + folder + "/" + name + ".java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, source);
    List<String> warnings = new ArrayList<>();
    Map<String, String> refused = new TreeMap<>();
    List<String> others = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> diagnostic : KilnJavac.compileCleanly(out, List.of(file))) {
      String message = diagnostic.getMessage(Locale.ROOT);
      assertTrue(!message.contains("kiln.internal"), () -> "internal error: " + message);
      Matcher id = ERROR_ID.matcher(message);
      boolean identified = id.find();
      if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
        warnings.add(name + ".java:" + diagnostic.getLineNumber() + " " + (identified ? id.group(1) : message));
        continue;
      }
      String group = groups.stream().filter(g -> message.contains("group '" + g + "'")).findFirst().orElse(null);
      if (identified && id.group(1).startsWith("kiln.fusion.") && group != null) {
        refused.putIfAbsent(group, id.group(1));
      } else {
        others.add(name + ".java:" + diagnostic.getLineNumber() + ": " + message);
      }
    }
    if (others.isEmpty() && !refused.isEmpty()) {
      String apart = source;
      for (String group : refused.keySet()) {
        apart = apart.replace("@FuseGroup(\"" + group + "\")", "");
      }
      Files.writeString(file, apart);
      List<Diagnostic<? extends JavaFileObject>> again = KilnJavac.compile(out, List.of(file));
      assertTrue(again.isEmpty(), () -> name + " with its refused groups apart: " + again);
    }
    return new Compiled(warnings, refused, others);
  }
}
