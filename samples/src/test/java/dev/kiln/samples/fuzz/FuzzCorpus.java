package dev.kiln.samples.fuzz;


import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Random kernels written into classes of {@link #PER_CLASS} for the fuzz tests. (Compiling is
 * {@link FuzzJavac}'s, so that a machine without javac can run kernels compiled elsewhere.)
 */
final class FuzzCorpus {
  static final int PER_CLASS = 80;

  /** Each class's source, and each kernel's name and first and last line in it. */
  record Corpus(List<String> sources, List<List<String>> kernels, List<List<int[]>> lines) {}

  private FuzzCorpus() {}

  /** {@code count} kernels {@code k0, k1, ...} from {@code generator}, in classes of {@link #PER_CLASS}, without {@code omitted}. */
  static Corpus corpus(String prefix, int count, Function<String, String> generator,
      Set<String> omitted) {
    List<String> sources = new ArrayList<>();
    List<List<String>> kernels = new ArrayList<>();
    List<List<int[]>> lines = new ArrayList<>();
    for (int from = 0; from < count; from += PER_CLASS) {
      StringBuilder source = new StringBuilder("package fuzz;\n\nimport dev.kiln.Gpu;\nimport dev.kiln.annotations.Kernel;\n\n"
          + "public final class " + prefix + sources.size() + " {\n");
      List<String> names = new ArrayList<>();
      List<int[]> spans = new ArrayList<>();
      for (int k = from; k < Math.min(count, from + PER_CLASS); k++) {
        String name = "k" + k;
        String kernel = generator.apply(name); // generated even when omitted, so that the rest stay the same
        if (omitted.contains(name)) {
          continue;
        }
        int first = (int) source.chars().filter(ch -> ch == '\n').count() + 1;
        source.append(kernel);
        spans.add(new int[] {first, (int) source.chars().filter(ch -> ch == '\n').count()});
        names.add(name);
      }
      sources.add(source.append("}\n").toString());
      kernels.add(names);
      lines.add(spans);
    }
    return new Corpus(sources, kernels, lines);
  }

  /**
   * Writes the classes' sources under {@code out/src/fuzz}, with the helpers their kernels call
   * ({@code fuzz/FuzzHelpers.java}); returns their files, the helpers' in the middle, so that javac
   * analyzes some kernel classes before the helpers' and some after.
   */
  static List<Path> write(Path out, Corpus corpus) throws IOException {
    Path sources = out.resolve("src/fuzz");
    Files.createDirectories(sources);
    List<Path> files = new ArrayList<>();
    for (int c = 0; c < corpus.sources().size(); c++) {
      String name = corpus.sources().get(c).split("public final class ")[1].split(" ")[0];
      Path file = sources.resolve(name + ".java");
      Files.writeString(file, corpus.sources().get(c));
      files.add(file);
    }
    Path helpers = sources.resolve("FuzzHelpers.java");
    try (InputStream in = FuzzCorpus.class.getResourceAsStream("/fuzz/FuzzHelpers.java")) {
      Files.write(helpers, in.readAllBytes());
    }
    files.add(files.size() / 2, helpers);
    return files;
  }

  /** The kernel of class {@code c} whose lines hold line {@code line}, or null. */
  static String kernelAt(Corpus corpus, int c, long line) {
    List<int[]> spans = corpus.lines().get(c);
    for (int k = 0; k < spans.size(); k++) {
      if (line >= spans.get(k)[0] && line <= spans.get(k)[1]) {
        return corpus.kernels().get(c).get(k);
      }
    }
    return null;
  }

}
