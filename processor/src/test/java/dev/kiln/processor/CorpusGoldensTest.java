package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the processor makes of every corpus file, against golden files under {@code golden/corpus}:
 * its launchers, the IR of each kernel and group as the passes left it ({@code -Akiln.dump}), and
 * the disassembly of each module. A change of code generation shows here as a reviewable diff;
 * {@code -Dkiln.updateGoldens=true} rewrites them.
 */
class CorpusGoldensTest {
  private static final Pattern LOCAL_ID = Pattern.compile("#(\\d+)");

  @TempDir Path dump;

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.kiln.processor.ValidKernelsTest#corpusFiles")
  void launchersMatchTheirGoldens(String name) {
    Compilation compilation = compile(name);
    String launchers =
        compilation.generatedSourceFiles().stream()
            .sorted(Comparator.comparing(JavaFileObject::getName))
            .map(file -> "// ==== " + Path.of(file.getName()).getFileName() + "\n" + content(file))
            .collect(Collectors.joining("\n"));
    Goldens.assertMatches("corpus/" + name + "Kernels.java.txt", launchers);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.kiln.processor.ValidKernelsTest#corpusFiles")
  void irMatchesItsGolden(String name) throws IOException {
    compile(name);
    List<Path> texts;
    try (Stream<Path> files = Files.walk(dump)) {
      texts = files.filter(file -> file.toString().endsWith(".ir.txt")).sorted().toList();
    }
    assertThat(texts).isNotEmpty();
    StringBuilder ir = new StringBuilder();
    for (Path text : texts) {
      String program =
          Files.readString(text)
              .lines()
              .filter(line -> !line.startsWith("// SPIR-V: ")) // says whether spirv-dis was found
              .collect(Collectors.joining("\n", "", "\n"));
      ir.append("// ==== ").append(text.getFileName()).append('\n').append(renumbered(program));
    }
    Goldens.assertMatches("corpus/" + name + ".ir.txt", ir.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.kiln.processor.ValidKernelsTest#corpusFiles")
  void modulesDisassembleToTheirGoldens(String name) {
    SpirvTools.requireDisassembler();
    Compilation compilation = compile(name);
    String disassembly =
        compilation.generatedFiles().stream()
            .filter(file -> file.getName().endsWith(".spv"))
            .sorted(Comparator.comparing(JavaFileObject::getName))
            .map(
                file ->
                    "; ==== "
                        + Path.of(file.getName()).getFileName()
                        + "\n"
                        + SpirvTools.disassemble(bytes(file))
                        + described(compilation, file))
            .collect(Collectors.joining("\n"));
    Goldens.assertMatches("corpus/" + name + ".spvasm", disassembly);
  }

  /** The description beside {@code module}, a comment line per fact. */
  private static String described(Compilation compilation, JavaFileObject module) {
    String path = module.toUri().getPath();
    String name =
        dev.kiln.abi.DescriptionCodec.resourceOf(path.substring(path.lastIndexOf('/') + 1));
    JavaFileObject file =
        compilation.generatedFiles().stream()
            .filter(generated -> generated.toUri().getPath().endsWith("/" + name))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no description " + name));
    return DescriptionText.lines(dev.kiln.abi.DescriptionCodec.read(bytes(file))).stream()
        .map(line -> "; described: " + line + "\n")
        .collect(Collectors.joining());
  }

  private Compilation compile(String name) {
    List<String> options = List.of("-Akiln.dump=" + dump);
    Compilation compilation =
        name.equals("CrossClass")
            ? Kernels.compile(
                options,
                Kernels.source("corpus/CrossClass.java"),
                Kernels.source("corpus/ColorMath.java"))
            : Kernels.compile(options, Kernels.source("corpus/" + name + ".java"));
    assertThat(compilation.status()).isEqualTo(Compilation.Status.SUCCESS);
    return compilation;
  }

  /**
   * The program with its locals numbered from 0 in order of appearance: the processor numbers
   * locals across every program of the JVM, so the numbers depend on what compiled before.
   */
  static String renumbered(String program) {
    Map<String, Integer> ids = new HashMap<>();
    Matcher id = LOCAL_ID.matcher(program);
    StringBuilder out = new StringBuilder();
    while (id.find()) {
      id.appendReplacement(out, "#" + ids.computeIfAbsent(id.group(1), any -> ids.size()));
    }
    return id.appendTail(out).toString();
  }

  private static String content(JavaFileObject file) {
    try {
      return file.getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] bytes(JavaFileObject file) {
    try (InputStream in = file.openInputStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
