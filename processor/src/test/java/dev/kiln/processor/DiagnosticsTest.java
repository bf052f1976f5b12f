package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.google.testing.compile.Compilation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each fixture under {@code invalid/} marks every line that must get an error with {@code // ERROR:
 * [id]}; the compile must fail with exactly those errors, each on its line, in that file, carrying
 * its id and a {@code Fix:}.
 */
class DiagnosticsTest {
  private static final Pattern MARKER = Pattern.compile("// ERROR: \\[([a-zA-Z.]+)]");

  private record Expected(long line, String id) {}

  @ParameterizedTest
  @ValueSource(
      strings = {
        "invalid/Signatures.java",
        "invalid/Bodies.java",
        "invalid/LocalClasses.java",
        "invalid/Helpers.java",
        "invalid/Fusion.java",
        "invalid/Groups.java",
        "invalid/Barriers.java",
        "invalid/LauncherNames.java",
        "invalid/ModuleSize.java",
        "invalid/LaunchShapes.java"
      })
  void everyMarkedLineGetsItsErrorAndNoOtherLineDoes(String fixture) {
    List<Expected> expected = markers(Kernels.text(fixture));
    Compilation compilation = Kernels.compile(Kernels.source(fixture));

    assertThat(compilation.status()).isEqualTo(Compilation.Status.FAILURE);
    List<String> unexpected = new ArrayList<>();
    List<Expected> missing = new ArrayList<>(expected);
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      String message = error.getMessage(Locale.ROOT);
      Matcher id = Pattern.compile("^\\[([a-zA-Z.]+)] ").matcher(message);
      Expected actual = new Expected(error.getLineNumber(), id.find() ? id.group(1) : "<no id>");
      if (!missing.remove(actual)) {
        unexpected.add("line " + error.getLineNumber() + ": " + message);
      }
      assertWithMessage("file of %s", message)
          .that(error.getSource().getName())
          .endsWith(fixture.substring(fixture.indexOf('/')));
      assertWithMessage("message at line %s", error.getLineNumber())
          .that(message)
          .containsMatch("\\. Fix: .+\\.$");
    }
    assertWithMessage("errors no marker asks for").that(unexpected).isEmpty();
    assertWithMessage("marked errors javac did not report").that(missing).isEmpty();
  }

  /**
   * After javac's own errors in a kernel body, Kiln reports nothing more: no noise, no internal
   * error.
   */
  @org.junit.jupiter.api.Test
  void javacsOwnErrorsAreNotRepeated() {
    Compilation compilation = Kernels.compile(Kernels.source("javacErrors/AfterJavac.java"));
    assertThat(compilation.status()).isEqualTo(Compilation.Status.FAILURE);
    List<String> kiln =
        compilation.errors().stream()
            .map(error -> error.getMessage(Locale.ROOT))
            .filter(message -> message.startsWith("[kiln.") || message.contains("<any>"))
            .toList();
    assertWithMessage("Kiln's errors beside javac's").that(kiln).isEmpty();
    // the unknown symbol, the stray break and continue, the helper call and the yield; javac
    // reports
    // the switch expression's missing default in flow analysis, only once there are no others
    assertThat(compilation.errors().size()).isAtLeast(5);
  }

  /** The full text of every error of a fixture, as javac prints it, under a golden file. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "Fusion",
        "Groups",
        "Barriers",
        "Bodies",
        "Signatures",
        "LauncherNames",
        "ModuleSize",
        "LaunchShapes",
        "Helpers"
      })
  void messagesReadAsWritten(String fixture) {
    Compilation compilation = Kernels.compile(Kernels.source("invalid/" + fixture + ".java"));
    StringBuilder text = new StringBuilder();
    compilation.errors().stream()
        .sorted(java.util.Comparator.comparingLong(Diagnostic::getLineNumber))
        .forEach(
            error ->
                text.append(fixture)
                    .append(".java:")
                    .append(error.getLineNumber())
                    .append(": ")
                    .append(error.getMessage(Locale.ROOT))
                    .append("\n"));
    Goldens.assertMatches(fixture + ".errors.txt", text.toString());
  }

  /**
   * A constant index out of bounds is reported at the index itself, in an access and in an atomic's
   * argument.
   */
  @org.junit.jupiter.api.Test
  void aConstantIndexIsReportedAtTheIndex() {
    String line1 = "    x[-1] = 2f;";
    String line2 = "    Gpu.atomicAdd(io, -1, 1);";
    Compilation compilation =
        Kernels.compile(
            com.google.testing.compile.JavaFileObjects.forSourceLines(
                "test.Indices",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Indices {",
                "  @Kernel(boundsChecks = false)",
                "  static void k(float[] x, int[] io) {",
                line1,
                line2,
                "  }",
                "}"));
    assertThat(
            compilation.errors().stream()
                .map(e -> e.getLineNumber() + ":" + e.getColumnNumber())
                .toList())
        .containsExactly("7:" + (line1.indexOf("-1") + 1), "8:" + (line2.indexOf("-1") + 1))
        .inOrder();
  }

  /**
   * A kernel of 10,000 updates (a fuzz unit's shape) once ran javac out of its 2 GB heap writing
   * its CPU twin after its module was refused: in a javac of that heap it now ends in the one
   * positioned limit error, within a minute.
   */
  @org.junit.jupiter.api.Test
  void aKernelTooLargeToWriteGetsOneLimitErrorInTwoGigabytes(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Updates {",
                "  @Kernel",
                "  static void updates(float[] y, int k) {",
                "    int i = Gpu.globalId(0);"));
    lines.addAll(java.util.Collections.nCopies(10_000, "    y[i] += k;"));
    lines.addAll(List.of("  }", "}"));
    java.nio.file.Path source = java.nio.file.Files.write(dir.resolve("Updates.java"), lines);
    String classPath = System.getProperty("java.class.path");
    Process javac =
        new ProcessBuilder(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-J-Xmx2g",
                "-proc:full",
                "-processorpath",
                classPath,
                "-cp",
                classPath,
                "-d",
                dir.toString(),
                source.toString())
            .redirectErrorStream(true)
            .start();
    String output =
        new String(javac.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertWithMessage(output)
        .that(javac.waitFor(60, java.util.concurrent.TimeUnit.SECONDS))
        .isTrue();
    assertWithMessage(output).that(javac.exitValue()).isEqualTo(1); // errors; 4 is javac's crash
    assertThat(output)
        .containsMatch(
            "Updates.java:6: error: \\[kiln.kernel.moduleSize] the SPIR-V of kernel updates"
                + " would be \\d+ bytes; Kiln writes at most 1048576");
    assertThat(output).contains("1 error");
  }

  private static List<Expected> markers(String source) {
    List<Expected> expected = new ArrayList<>();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher marker = MARKER.matcher(lines[i]);
      if (marker.find()) {
        expected.add(new Expected(i + 1, marker.group(1)));
      }
    }
    return expected;
  }

  /** Warnings sit on the lines marked {@code // WARNING: [id]}, and no other line gets one. */
  @org.junit.jupiter.api.Test
  void racyUpdatesAreWarnedAbout() {
    String fixture = "warnings/Races.java";
    Compilation compilation = Kernels.compile(Kernels.source(fixture));
    assertThat(compilation.errors()).isEmpty();
    List<String> warned = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> warning : compilation.warnings()) {
      Matcher id = Pattern.compile("^\\[([\\w.]+)\\]").matcher(warning.getMessage(Locale.ROOT));
      if (id.find()) {
        warned.add(warning.getLineNumber() + " " + id.group(1));
      }
    }
    List<String> marked = new ArrayList<>();
    String[] lines = Kernels.text(fixture).split("\n", -1);
    for (int line = 0; line < lines.length; line++) {
      Matcher marker = Pattern.compile("// WARNING: \\[([\\w.]+)\\]").matcher(lines[line]);
      if (marker.find()) {
        marked.add((line + 1) + " " + marker.group(1));
      }
    }
    assertThat(warned).containsExactlyElementsIn(marked);
  }

  /**
   * The full text of every warning of the races fixture, as javac prints it, under a golden file.
   */
  @org.junit.jupiter.api.Test
  void warningsReadAsWritten() {
    Compilation compilation = Kernels.compile(Kernels.source("warnings/Races.java"));
    StringBuilder text = new StringBuilder();
    compilation.warnings().stream()
        .filter(warning -> warning.getMessage(Locale.ROOT).startsWith("[kiln."))
        .sorted(java.util.Comparator.comparingLong(Diagnostic::getLineNumber))
        .forEach(
            warning ->
                text.append("Races.java:")
                    .append(warning.getLineNumber())
                    .append(": ")
                    .append(warning.getMessage(Locale.ROOT))
                    .append("\n"));
    Goldens.assertMatches("Races.warnings.txt", text.toString());
  }
}
