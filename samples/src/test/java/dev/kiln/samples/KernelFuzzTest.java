package dev.kiln.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kiln's own fuzzer ({@link RandomKernels}; docs/FUZZING.md says how to run it long and reduce a
 * finding). Valid random kernels must compile without a diagnostic, give modules spirv-val accepts,
 * and leave every output bit for bit as their Java methods do, on Vulkan and on the CPU backend,
 * for random data and sizes that are not multiples of the workgroup. Odd kernels (one construct the
 * language may reject) must never crash Kiln: no {@code kiln.internal}, every Kiln error with its
 * id, line and {@code Fix:}; and the ones accepted, compiled again without the rejected ones, must
 * give launchers that compile and valid modules. {@code -Dkiln.fuzzKernels=N},
 * {@code -Dkiln.fuzzOdd=N} and {@code -Dkiln.fuzzSeed=S} run other amounts and seeds.
 */
class KernelFuzzTest extends BothDevices {
  private static final int KERNELS = Integer.getInteger("kiln.fuzzKernels", 240);
  private static final int ODD = Integer.getInteger("kiln.fuzzOdd", 240);
  private static final long SEED = Long.getLong("kiln.fuzzSeed", 20261130L);
  private static final int PER_CLASS = 80;

  /**
   * Lavapipe 22.3 folds some float expressions as if NaN, infinities and signed zeros did not exist
   * (README, known driver gaps): there a difference whose values are such specials is counted apart.
   */
  private static boolean lavapipe() {
    return vulkan.name().contains("llvmpipe");
  }

  private static boolean special(float value) {
    return value == 0f || Float.isNaN(value) || Float.isInfinite(value);
  }

  /** Kernels written into classes: each class's source, and each kernel's name and first and last line. */
  private record Corpus(List<String> sources, List<List<String>> kernels, List<List<int[]>> lines) {}

  @Test
  void validKernelsMatchJavaOnBothDevices(@TempDir Path dir) throws Exception {
    RandomKernels generator = new RandomKernels(new Random(SEED));
    Corpus corpus = corpus("Valid", KERNELS, generator::kernel, Set.of());
    List<Diagnostic<? extends JavaFileObject>> errors = compile(dir, corpus);
    assertTrue(errors.isEmpty(), () -> "valid kernels must compile cleanly: " + describe(errors));
    assertEquals(0, invalidModules(dir), "modules spirv-val rejects");

    ClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
    Random data = new Random(SEED + 1);
    int runs = 0;
    List<String> gaps = new ArrayList<>();
    for (int c = 0; c < corpus.sources().size(); c++) {
      Class<?> launcher = loader.loadClass("fuzz.Valid" + c + "Kernels");
      for (String kernel : corpus.kernels().get(c)) {
        if (run(launcher, kernel, data, corpus.sources().get(c))) {
          gaps.add(kernel);
        }
        runs++;
      }
    }
    System.out.printf("kernel fuzzer (seed %d) on %s: %d valid kernels compiled and validated; %d identical on"
        + " Vulkan, the CPU backend and Java, %d differing only where Java has NaN, an infinity or a zero (lavapipe's gap) %s%n", SEED,
        vulkan.name(), runs, runs - gaps.size(), gaps.size(), gaps);
    assertEquals(KERNELS, runs);
  }

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
      Corpus corpus = corpus("Odd", ODD, new RandomKernels(new Random(SEED + 2))::odd, rejected.keySet());
      last = dir.resolve("pass" + pass);
      List<Diagnostic<? extends JavaFileObject>> errors = compile(last, corpus);
      if (errors.isEmpty()) {
        break;
      }
      for (Diagnostic<? extends JavaFileObject> error : errors) {
        String message = error.getMessage(Locale.ROOT);
        String kernel = kernelAt(corpus, error);
        if (message.startsWith("[kiln.internal]") || kernel == null
            || message.startsWith("[kiln.") && !message.matches("(?s).*\\. Fix: .+\\.$")) {
          problems.add(error.getSource().getName() + ":" + error.getLineNumber() + ": " + message);
        } else {
          rejected.putIfAbsent(kernel, message.startsWith("[kiln.") ? message.substring(1, message.indexOf(']')) : "javac");
        }
      }
      assertTrue(problems.isEmpty(), () -> "Kiln crashed or reported badly:\n" + String.join("\n", problems));
      assertTrue(rejected.size() > before, () -> "errors in kernels already rejected: " + describe(errors));
    }
    assertEquals(0, invalidModules(last), "modules spirv-val rejects");
    Map<String, Integer> byKind = new TreeMap<>();
    rejected.values().forEach(kind -> byKind.merge(kind, 1, Integer::sum));
    System.out.printf("kernel fuzzer (seed %d): %d odd kernels, %d accepted (valid modules, launchers compile),"
        + " %d rejected with positioned errors %s, 0 internal errors%n", SEED, ODD, ODD - rejected.size(),
        rejected.size(), byKind);
  }

  /** {@code count} kernels {@code k0, k1, ...} from {@code generator}, in classes of {@link #PER_CLASS}, without {@code omitted}. */
  private static Corpus corpus(String prefix, int count, java.util.function.Function<String, String> generator,
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

  private static List<Diagnostic<? extends JavaFileObject>> compile(Path out, Corpus corpus) throws IOException {
    Path sources = out.resolve("src/fuzz");
    Files.createDirectories(sources);
    List<Path> files = new ArrayList<>();
    for (int c = 0; c < corpus.sources().size(); c++) {
      String name = corpus.sources().get(c).split("public final class ")[1].split(" ")[0];
      Path file = sources.resolve(name + ".java");
      Files.writeString(file, corpus.sources().get(c));
      files.add(file);
    }
    return KilnJavac.compile(out, files);
  }

  /** The kernel whose lines hold {@code error}, or null. */
  private static String kernelAt(Corpus corpus, Diagnostic<? extends JavaFileObject> error) {
    if (error.getSource() == null) {
      return null;
    }
    String file = Path.of(error.getSource().getName()).getFileName().toString();
    int c = Integer.parseInt(file.replaceAll("\\D", ""));
    List<int[]> spans = corpus.lines().get(c);
    for (int k = 0; k < spans.size(); k++) {
      if (error.getLineNumber() >= spans.get(k)[0] && error.getLineNumber() <= spans.get(k)[1]) {
        return corpus.kernels().get(c).get(k);
      }
    }
    return null;
  }

  /** Runs spirv-val on every module under {@code dir}; the number it rejects, each printed. */
  private static int invalidModules(Path dir) throws Exception {
    List<Path> modules;
    try (Stream<Path> files = Files.walk(dir)) {
      modules = files.filter(file -> file.toString().endsWith(".spv")).toList();
    }
    assertTrue(!modules.isEmpty(), "no modules under " + dir);
    int invalid = 0;
    for (Path module : modules) {
      Process process = new ProcessBuilder("spirv-val", "--target-env", "vulkan1.1", module.toString())
          .redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (process.waitFor() != 0) {
        System.out.println("spirv-val rejects " + module + ":\n" + output);
        invalid++;
      }
    }
    return invalid;
  }

  /**
   * Runs {@code kernel} on both devices from the same random data, and compares its outputs; true
   * where they differ only in lavapipe's documented gap (NaN, infinities, signed zeros).
   */
  private static boolean run(Class<?> launcher, String kernel, Random random, String source) throws Exception {
    int n = 1 + random.nextInt(900);
    int[] ia = Bits.randomInts(random, 1 + random.nextInt(300));
    float[] fa = Bits.randomFloats(random, 1 + random.nextInt(300), 64f);
    int s = random.nextInt(64) - 16;
    float t = random.nextInt(64) / 4f - 4f;
    Method method = launcher.getMethod(kernel, Device.class, int.class, int[].class, float[].class, int[].class,
        float[].class, int.class, float.class);
    Object[][] outputs = new Object[2][];
    Device[] devices = {cpu, vulkan};
    for (int d = 0; d < 2; d++) {
      int[] io = new int[n];
      float[] fo = new float[n];
      try {
        method.invoke(null, devices[d], n, ia, fa, io, fo, s, t);
      } catch (InvocationTargetException e) {
        throw new AssertionError(kernel + " failed on " + devices[d].backend() + ":\n" + kernelSource(source, kernel),
            e.getCause());
      }
      outputs[d] = new Object[] {io, fo};
    }
    Bits.assertSameBits("io of " + kernel + " (seed " + SEED + ", n " + n + "):\n" + kernelSource(source, kernel),
        outputs[0][0], outputs[1][0]);
    float[] java = (float[]) outputs[0][1];
    float[] gpu = (float[]) outputs[1][1];
    boolean specialsOnly = true;
    boolean same = true;
    for (int i = 0; i < n; i++) {
      if (Float.floatToIntBits(java[i]) != Float.floatToIntBits(gpu[i])) {
        same = false;
        specialsOnly &= special(java[i]) || special(gpu[i]);
      }
    }
    if (same) {
      return false;
    }
    if (specialsOnly && lavapipe()) {
      return true; // lavapipe's documented gap: it folds floats as if NaN, infinities and -0f did not exist
    }
    Bits.assertSameBits("fo of " + kernel + " (seed " + SEED + ", n " + n + "):\n" + kernelSource(source, kernel),
        java, gpu);
    return false;
  }

  private static String kernelSource(String source, String kernel) {
    int at = source.indexOf("static void " + kernel + "(");
    int end = source.indexOf("  @Kernel", at);
    return source.substring(Math.max(0, at - 10), end < 0 ? source.length() : end);
  }

  private static String describe(List<Diagnostic<? extends JavaFileObject>> errors) {
    Set<String> lines = new HashSet<>();
    errors.stream().limit(20).forEach(error -> lines.add(error.getSource().getName() + ":" + error.getLineNumber()
        + ": " + error.getMessage(Locale.ROOT)));
    return errors.size() + " errors, among them:\n" + String.join("\n", lines);
  }
}
