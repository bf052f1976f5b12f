package dev.kiln.samples.fuzz;

import dev.kiln.samples.testing.SpirvVal;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.samples.testing.FlushingTwin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kiln's own fuzzer, valid kernels ({@link RandomKernels}; docs/FUZZING.md says how to run it long
 * and reduce a finding; {@link OddKernelFuzzTest} has the odd ones). Valid random kernels must
 * compile without a diagnostic, give modules spirv-val accepts, and leave every output bit for bit
 * as their Java methods do, on Vulkan and on the CPU backend, for random data and sizes that are
 * not multiples of the workgroup. {@code -Dkiln.fuzzKernels=N} and {@code -Dkiln.fuzzSeed=S} run
 * other amounts and seeds;
 * {@code -Dkiln.fuzzDir=D} compiles the valid kernels into D, and where D holds them packed as
 * {@code valid.jar} (made here, for the GPU machine, which has no javac) runs those instead.
 */
class KernelFuzzTest extends BothDevices {
  private static final int KERNELS = Integer.getInteger("kiln.fuzzKernels", 240);
  private static final long SEED = Long.getLong("kiln.fuzzSeed", 20261130L);
  /** {@code -Dkiln.fuzzOnly=k12,k345}: run only these kernels of the seed, with the data they get in a whole run. */
  private static final Set<String> ONLY = Set.of(System.getProperty("kiln.fuzzOnly", "").split(",")).stream()
      .filter(name -> !name.isEmpty()).collect(java.util.stream.Collectors.toUnmodifiableSet());
  /**
   * {@code -Dkiln.fuzzRange=500-999}: run only the kernels numbered so (both ends included), with
   * the data they get in a whole run: parts of a long run in separate processes.
   */
  private static final int[] RANGE = Arrays.stream(System.getProperty("kiln.fuzzRange", "0-" + Integer.MAX_VALUE)
      .split("-")).mapToInt(Integer::parseInt).toArray();
  /** How many of the slowest kernels (pipeline built and both devices' launches) the summary names. */
  private static final int SLOWEST = 5;

  /**
   * Lavapipe 22.3 folds some float expressions as if NaN, infinities and signed zeros did not exist
   * (docs/DRIVER-GAPS.md): there a difference whose values are such specials is counted apart.
   */
  private static boolean lavapipe() {
    return vulkan.name().contains("llvmpipe");
  }

  private static boolean special(float value) {
    return value == 0f || Float.isNaN(value) || Float.isInfinite(value);
  }

  @Test
  void validKernelsMatchJavaOnBothDevices(@TempDir Path dir) throws Exception {
    RandomKernels generator = new RandomKernels(new Random(SEED));
    int[] made = {0}; // every fourth kernel may fault
    FuzzCorpus.Corpus corpus = FuzzCorpus.corpus("Valid", KERNELS,
        name -> made[0]++ % 4 == 3 ? generator.faulting(name) : generator.kernel(name), Set.of());
    Path work = System.getProperty("kiln.fuzzDir") == null ? dir : Path.of(System.getProperty("kiln.fuzzDir"));
    Path packed = work.resolve("valid.jar"); // compiled elsewhere, for a machine without javac
    if (!Files.exists(packed)) {
      List<String> errors = FuzzJavac.compileErrors(work, corpus);
      assertTrue(errors.isEmpty(), () -> "valid kernels must compile cleanly: " + errors.size()
          + " errors and Kiln warnings, among them:\n"
          + String.join("\n", errors.subList(0, Math.min(20, errors.size()))));
      assertEquals(0, SpirvVal.invalidModules(work), "modules spirv-val rejects");
    }
    if (Boolean.getBoolean("kiln.fuzzCompileOnly")) {
      System.out.printf("kernel fuzzer (seed %d): %d valid kernels compiled into %s, modules validated%n", SEED,
          KERNELS, work);
      return;
    }
    URL compiled = (Files.exists(packed) ? packed : work).toUri().toURL();
    ClassLoader loader = new URLClassLoader(new URL[] {compiled}, getClass().getClassLoader());
    ClassLoader flushing = FlushingTwin.loader(compiled, "fuzz.", getClass().getClassLoader());
    Random data = new Random(SEED + 1);
    int runs = 0;
    List<String> specials = new ArrayList<>();
    List<String> flushed = new ArrayList<>();
    List<String> differences = new ArrayList<>();
    List<String> faults = new ArrayList<>();
    List<Timed> times = new ArrayList<>(); // a driver that takes seconds to build a kernel's pipeline, say
    int number = -1;
    for (int c = 0; c < corpus.sources().size(); c++) {
      String launcher = "fuzz.Valid" + c + "Kernels";
      for (String kernel : corpus.kernels().get(c)) {
        Data drawn = Data.draw(data);
        number++;
        if (!ONLY.isEmpty() && !ONLY.contains(kernel) || number < RANGE[0] || number > RANGE[1]) {
          continue;
        }
        long start = System.nanoTime();
        Comparison comparison = run(loader.loadClass(launcher), flushing.loadClass(launcher), kernel, drawn);
        times.add(new Timed(kernel, (System.nanoTime() - start) / 1e9));
        switch (comparison.outcome()) {
          case SAME -> {}
          case FAULTED -> faults.add(kernel);
          case FLUSHED -> flushed.add(kernel);
          case SPECIALS -> specials.add(kernel);
          case DIFFERENT -> differences.add(comparison.difference() + "\n"
              + kernelSource(corpus.sources().get(c), kernel));
        }
        runs++;
      }
    }
    System.out.printf("kernel fuzzer (seed %d) on %s: %d valid kernels compiled and validated; %d identical on"
        + " Vulkan, the CPU backend and Java, %d of them faulting, each with Java's exception; %d differing only as the device's flush of subnormals explains %s;"
        + " %d differing only where one side has NaN, an infinity or a zero (lavapipe's gap) %s; %d differing"
        + " otherwise; %.1f s in all (%.3f s per kernel in the first tenth, %.3f s in the last), the slowest %s%n",
        SEED, vulkan.name(), runs, runs - flushed.size() - specials.size() - differences.size(), faults.size(),
        flushed.size(), flushed,
        specials.size(), specials, differences.size(), times.stream().mapToDouble(Timed::seconds).sum(),
        mean(times.subList(0, times.size() / 10)), mean(times.subList(times.size() - times.size() / 10, times.size())),
        times.stream().sorted(Comparator.comparingDouble(Timed::seconds).reversed()).limit(SLOWEST).toList());
    if (!differences.isEmpty()) { // the kernels' sources go to a file, not the build's output
      Path listed = Path.of("target", "kernel-fuzz-differences.txt").toAbsolutePath();
      Files.writeString(listed, String.join("\n", differences));
      System.out.println("kernel fuzzer: the differing kernels, each with its source: " + listed);
    }
    assertEquals(ONLY.isEmpty() ? Math.min(KERNELS - 1, RANGE[1]) - RANGE[0] + 1 : ONLY.size(), runs);
    if (lavapipe()) {
      // lavapipe's folds also change values that follow from a NaN, an infinity or a zero: its
      // differences are listed, and only a share beyond its usual one fails; the GPU run of
      // the same kernels (docs/FUZZING.md) is the strict check
      int ran = runs;
      assertTrue(differences.size() <= ran / 20, () -> differences.size() + " of " + ran + " kernels differ on"
          + " lavapipe, more than its gaps explain:\n" + String.join("\n", differences));
    } else {
      assertTrue(differences.isEmpty(), () -> differences.size() + " kernels differ:\n" + String.join("\n", differences));
    }
  }

  /** A kernel's count, inputs and scalars, drawn in a fixed order so that a kernel gets the same data alone. */
  private record Data(int n, int[] ia, float[] fa, int s, float t) {
    static Data draw(Random random) {
      int n = 1 + random.nextInt(900);
      int[] ia = Bits.randomInts(random, 1 + random.nextInt(300));
      float[] fa = Bits.randomFloats(random, 1 + random.nextInt(300), 64f);
      int s = random.nextInt(64) - 16;
      return new Data(n, ia, fa, s, random.nextInt(64) / 4f - 4f);
    }
  }

  /** A kernel's run, its pipeline built and its launches on both devices, in seconds. */
  private record Timed(String kernel, double seconds) {
    @Override
    public String toString() {
      return String.format("%s %.2f s", kernel, seconds);
    }
  }

  private static double mean(List<Timed> times) {
    return times.stream().mapToDouble(Timed::seconds).average().orElse(0);
  }

  /** How a kernel's outputs on Vulkan compare with Java's. */
  private enum Outcome {
    SAME,
    /** Java throws, and Vulkan throws the same exception, with the same message. */
    FAULTED,
    /** Different, and the same as its {@link FlushingTwin}'s, on a device that flushes subnormals. */
    FLUSHED,
    /** Different only where one side is NaN, an infinity or a zero, on lavapipe (its documented gap). */
    SPECIALS,
    DIFFERENT
  }

  /** An outcome, and for {@link Outcome#DIFFERENT} what differed. */
  private record Comparison(Outcome outcome, String difference) {
    static Comparison of(Outcome outcome) {
      return new Comparison(outcome, null);
    }
  }

  /**
   * Runs {@code kernel} through {@code launcher} on both devices from the same random data and
   * compares its outputs; where Vulkan's differ from Java's on a device that flushes subnormals,
   * also runs it through {@code flushingLauncher} (its {@link FlushingTwin}) on the CPU backend.
   */
  private static Comparison run(Class<?> launcher, Class<?> flushingLauncher, String kernel, Data data)
      throws Exception {
    int n = data.n();
    int[] ia = data.ia();
    float[] fa = data.fa();
    int s = data.s();
    float t = data.t();
    Device[] devices = {cpu, vulkan, cpu};
    Class<?>[] launchers = {launcher, launcher, flushingLauncher};
    int[][] ints = new int[3][];
    float[][] floats = new float[3][];
    for (int d = 0; d < 3; d++) {
      ints[d] = new int[n];
      floats[d] = new float[n];
      if (d == 2 && !(vulkan.flushesSubnormals() && differ(ints, floats, 0, 1))) {
        break;
      }
      Method method = launchers[d].getMethod(kernel, Device.class, int.class, int[].class, float[].class,
          int[].class, float[].class, int.class, float.class);
      try {
        method.invoke(null, devices[d], n, ia, fa, ints[d], floats[d], s, t);
      } catch (InvocationTargetException e) {
        if (d == 0) { // Java's exception: Vulkan must throw the same
          return faulted(kernel, e.getCause(), () -> method.invoke(null, vulkan, n, ia, fa, new int[n], new float[n], s, t));
        }
        return new Comparison(Outcome.DIFFERENT, kernel + " failed on " + devices[d].backend() + ": " + e.getCause());
      }
    }
    if (!differ(ints, floats, 0, 1)) {
      return Comparison.of(Outcome.SAME);
    }
    if (vulkan.flushesSubnormals() && !differ(ints, floats, 2, 1)) {
      return Comparison.of(Outcome.FLUSHED);
    }
    boolean specialsOnly = true;
    for (int i = 0; i < n; i++) {
      specialsOnly &= ints[0][i] == ints[1][i] && (Float.floatToIntBits(floats[0][i]) == Float.floatToIntBits(floats[1][i])
          || special(floats[0][i]) || special(floats[1][i]));
    }
    if (specialsOnly && lavapipe()) {
      return Comparison.of(Outcome.SPECIALS);
    }
    String difference = kernel + " (seed " + SEED + ", n " + n + "): " + firstDifference(ints, floats, 0, "Java");
    if (vulkan.flushesSubnormals()) { // where the device also parts from the flush model
      difference += "; " + firstDifference(ints, floats, 2, "its flushing twin");
    }
    return new Comparison(Outcome.DIFFERENT, difference);
  }

  /** A launch through reflection. */
  @FunctionalInterface
  private interface Launch {
    void run() throws ReflectiveOperationException;
  }

  /**
   * A fault's message without the source line, which Vulkan adds where the CPU twins cannot know it
   * (a division's, not an access's).
   */
  private static String unlined(Throwable fault) {
    return fault.getMessage() == null ? null : fault.getMessage().replaceAll(" \\(line \\d+\\)", "");
  }

  /**
   * Whether {@code onVulkan} throws what the CPU backend threw, {@code expected}: its class and
   * message, but for a line the twin cannot name.
   */
  private static Comparison faulted(String kernel, Throwable expected, Launch onVulkan)
      throws ReflectiveOperationException {
    try {
      onVulkan.run();
    } catch (InvocationTargetException e) {
      Throwable thrown = e.getCause();
      return thrown.getClass() == expected.getClass() && Objects.equals(unlined(thrown), unlined(expected))
          ? Comparison.of(Outcome.FAULTED)
          : new Comparison(Outcome.DIFFERENT, kernel + " threw " + thrown + " on Vulkan where Java throws " + expected);
    }
    return new Comparison(Outcome.DIFFERENT, kernel + " ran on Vulkan where Java throws " + expected);
  }

  /** The first element where Vulkan's outputs (row 1) differ from row {@code other}'s, named {@code what}. */
  private static String firstDifference(int[][] ints, float[][] floats, int other, String what) {
    for (int i = 0; i < ints[1].length; i++) {
      if (ints[other][i] != ints[1][i]) {
        return "io[" + i + "] is " + ints[1][i] + " but " + what + " gives " + ints[other][i];
      }
      if (Float.floatToIntBits(floats[other][i]) != Float.floatToIntBits(floats[1][i])) {
        return "fo[" + i + "] is " + floats[1][i] + " but " + what + " gives " + floats[other][i];
      }
    }
    return "no element differs from " + what;
  }

  private static boolean differ(int[][] ints, float[][] floats, int a, int b) {
    return !java.util.Arrays.equals(ints[a], ints[b]) || !java.util.Arrays.equals(floats[a], floats[b]);
  }

  private static String kernelSource(String source, String kernel) {
    int at = source.indexOf("static void " + kernel + "(");
    int end = source.indexOf("  @Kernel", at);
    return source.substring(Math.max(0, at - 10), end < 0 ? source.length() : end);
  }

}
