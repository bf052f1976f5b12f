package dev.kiln.samples.corpus;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.Grid;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two corpora of ported kernels, as a Java programmer would write them for Kiln. {@code heldout/}:
 * kernels from public suites (Rodinia, PolyBench-ACC, SHOC, Parboil, the CUDA samples, TornadoVM's
 * and Aparapi's examples), written after the index-analysis work and kept out of it: the compiler
 * was not tuned to them. {@code ports/}: the kernels ML code is written in (llama.cpp's Vulkan
 * shaders, llm.c's CUDA kernels, GPULlama3.java's TornadoVM kernels), each naming its source,
 * ported as faithfully as Java allows (issue 48). Each class compiles on its own, as written, with
 * no Kiln warning (all are race-free); each kernel {@code k} comes with
 * {@code kArgs(Random)} (its arguments) and {@code kGrid} (an {@code int} count or an
 * {@code int[]} grid), each group {@code g} with {@code gGroupArgs} and {@code gGroupGrid}, and a
 * line {@code // expect g: fuses} or {@code // expect g: kiln.fusion.<kind>}. A kernel is right
 * where Vulkan, the CPU backend and the kernel method as Java leave every array alike: bit for bit,
 * or within {@code TOLERANCE} (relative, absolute for values below 1) in a class that calls
 * {@code Gpu}'s float functions, which are the driver's. The test prints the counts; it fails on a wrong result, an
 * internal error, or a group fused or refused against its expectation.
 */
class HeldOutCorpusTest extends BothDevices {
  /** A corpus: its resource folder, which is also its classes' package, and its classes. */
  record Corpus(String folder, List<String> classes) {
    @Override
    public String toString() {
      return folder;
    }
  }

  static List<Corpus> corpora() {
    return List.of(new Corpus("heldout", CLASSES), new Corpus("ports", PORTS));
  }

  private static final List<String> PORTS = List.of("MulMatVec", "SoftMax", "RmsNorm", "Rope", "LayerNorm",
      "Softmax1", "Encoder", "Attention", "ReductionOneBlock", "MatrixVectorLocal", "Residual");
  private static final List<String> CLASSES = List.of("Backprop", "NearestNeighbor", "Kmeans", "Hotspot", "Pathfinder",
      "Srad", "Gaussian", "Bfs", "Cfd", "Gemm", "Atax", "Mvt", "Gesummv", "TwoMm", "Syrk", "Correlation", "Jacobi2d",
      "Fdtd2d", "Convolution2d", "Triad", "MolecularDynamics", "ShocReduction", "SpmvCsr", "Stencil3d", "MriQ",
      "VectorAdd", "MatrixMul", "Transpose", "Reduce", "Histogram256", "BlackScholes", "NBody", "Mandelbrot");
  private static final Pattern EXPECT = Pattern.compile("// expect (\\w+): (fuses|kiln\\.fusion\\.\\w+)");
  /**
   * {@code -Dkiln.corpusDir=D}: each corpus compiles into {@code D/<folder>}, and where
   * {@code D/<folder>.jar} holds its classes (packed there for the GPU machine, which has no javac),
   * the kernels run from it; {@code -Dkiln.corpusCompileOnly=true}: compile, check, run nothing.
   */
  private static final String CORPUS_DIR = System.getProperty("kiln.corpusDir");

  private static final boolean COMPILE_ONLY = Boolean.getBoolean("kiln.corpusCompileOnly");

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpora")
  void portedKernelsCompileAsWrittenAndGiveJavasResults(Corpus corpus, @TempDir Path dir) throws Exception {
    int kernels = 0;
    int compiled = 0;
    int right = 0;
    int groups = 0;
    int asExpected = 0;
    int safeGroups = 0;
    int safeFused = 0;
    List<String> failures = new ArrayList<>();
    Map<String, String> notCompiled = new TreeMap<>();
    List<String> warnings = new ArrayList<>();
    Path work = CORPUS_DIR == null ? dir : Path.of(CORPUS_DIR).resolve(corpus.folder());
    Path packed = work.resolveSibling(corpus.folder() + ".jar");
    boolean precompiled = Files.exists(packed);
    for (String name : corpus.classes()) {
      String source = source(corpus, name);
      Map<String, String> expected = new LinkedHashMap<>();
      Matcher expectation = EXPECT.matcher(source);
      while (expectation.find()) {
        expected.put(expectation.group(1), expectation.group(2));
      }
      int kernelCount = count(source, "@Kernel");
      kernels += kernelCount;
      Map<String, String> refused = new TreeMap<>();
      if (precompiled) { // the verdicts were checked where it was compiled
        expected.entrySet().stream().filter(group -> !group.getValue().equals("fuses"))
            .forEach(group -> refused.put(group.getKey(), group.getValue()));
      } else {
        CorpusJavac.Compiled result = CorpusJavac.compile(corpus.folder(), name, source, expected.keySet(), work);
        warnings.addAll(result.warnings());
        refused.putAll(result.refused());
        if (!result.others().isEmpty()) {
          notCompiled.put(name, String.join("\n  ", result.others()));
          continue; // with fusion errors alone, the unfused kernels still compile below
        }
      }
      for (Map.Entry<String, String> group : expected.entrySet()) {
        groups++;
        String verdict = refused.getOrDefault(group.getKey(), "fuses");
        boolean safe = group.getValue().equals("fuses");
        safeGroups += safe ? 1 : 0;
        safeFused += safe && verdict.equals("fuses") ? 1 : 0;
        if (verdict.equals(group.getValue())) {
          asExpected++;
        } else {
          failures.add("group " + group.getKey() + " of " + name + ": expected " + group.getValue() + ", got " + verdict);
        }
      }
      compiled += kernelCount;
      if (COMPILE_ONLY) {
        continue;
      }
      URL classes = (precompiled ? packed : work).toUri().toURL();
      try (URLClassLoader loader = new URLClassLoader(new URL[] {classes}, getClass().getClassLoader())) {
        Class<?> kernelClass = loader.loadClass(corpus.folder() + "." + name);
        Class<?> launcher = loader.loadClass(corpus.folder() + "." + name + "Kernels");
        Field toleranceField = kernelClass.getDeclaredField("TOLERANCE");
        toleranceField.setAccessible(true);
        double tolerance = toleranceField.getDouble(null);
        for (Method method : kernelClass.getDeclaredMethods()) {
          String kernel = method.getName().replaceFirst("Args$", "");
          if (method.getName().endsWith("Args") && !kernel.endsWith("Group")) { // @Kernel is not kept at run time
            String failure = run(kernelClass, launcher, kernel, kernel, tolerance);
            if (failure == null) {
              right++;
            } else {
              failures.add(failure);
            }
          }
        }
        for (String group : expected.keySet()) {
          if (!refused.containsKey(group)) {
            String failure = run(kernelClass, launcher, group, group + "Group", tolerance);
            if (failure != null) {
              failures.add("group " + failure);
            }
          }
        }
      }
    }
    System.out.printf("%s corpus on %s: %d kernels in %d classes, %d compiled as written, %d right on Vulkan, the"
        + " CPU backend and Java; %d groups, %d as expected, %d of %d safe groups fused; %d Kiln warnings%n",
        corpus, COMPILE_ONLY ? "no device" : vulkan.name(), kernels, corpus.classes().size(), compiled, right, groups,
        asExpected, safeFused, safeGroups, warnings.size());
    warnings.forEach(warning -> System.out.println("warning: " + warning));
    notCompiled.forEach((name, why) -> System.out.println("not compiled: " + name + "\n  " + why));
    failures.forEach(failure -> System.out.println("failure: " + failure));
    assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
    assertTrue(notCompiled.isEmpty(), () -> "not compiled as written: " + notCompiled);
    if (precompiled) {
      return; // its warnings were checked where it was compiled
    }
    assertEquals(List.of(), warnings, "warnings on race-free kernels");
  }

  private static int count(String text, String word) {
    return text.split(Pattern.quote(word), -1).length - 1;
  }

  private static String source(Corpus corpus, String name) throws IOException {
    try (InputStream in = HeldOutCorpusTest.class.getResourceAsStream("/" + corpus.folder() + "/" + name + ".java")) {
      if (in == null) {
        throw new IOException("no class " + name + " in corpus " + corpus);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * Runs kernel or group {@code launched} (its launcher method) with {@code described}'s arguments
   * and grid on the three devices and compares every array; returns what differs, or null.
   */
  private static String run(Class<?> kernelClass, Class<?> launcher, String launched, String described,
      double tolerance) throws ReflectiveOperationException {
    Method arguments = kernelClass.getDeclaredMethod(described + "Args", Random.class);
    arguments.setAccessible(true);
    Field gridField = kernelClass.getDeclaredField(described + "Grid");
    gridField.setAccessible(true);
    Object grid = gridField.get(null);
    Object size = grid instanceof int[] axes ? (axes.length == 2 ? Grid.of(axes[0], axes[1]) : Grid.of(axes[0], axes[1],
        axes[2])) : grid;
    Object[][] runs = new Object[3][];
    Device[] devices = {cpuMethods, cpu, vulkan};
    for (int d = 0; d < 3; d++) {
      Object[] args = (Object[]) arguments.invoke(null, new Random(42));
      runs[d] = args;
      Object[] call = new Object[args.length + 2];
      call[0] = devices[d];
      call[1] = size;
      System.arraycopy(args, 0, call, 2, args.length);
      Method method = launcherMethod(launcher, launched, size, args);
      try {
        method.invoke(null, call);
      } catch (InvocationTargetException e) {
        return launched + " of " + kernelClass.getSimpleName() + " threw on " + devices[d].name() + ": " + e.getCause();
      }
    }
    for (int a = 0; a < runs[0].length; a++) {
      for (int d = 1; d < 3; d++) {
        String difference = difference(runs[0][a], runs[d][a], tolerance);
        if (difference != null) {
          return launched + " of " + kernelClass.getSimpleName() + ", argument " + a + " on " + devices[d].name() + ": "
              + difference;
        }
      }
    }
    return null;
  }

  private static Method launcherMethod(Class<?> launcher, String name, Object size, Object[] args) {
    for (Method method : launcher.getMethods()) {
      Class<?>[] types = method.getParameterTypes();
      if (method.getName().equals(name) && Modifier.isStatic(method.getModifiers()) && types.length == args.length + 2
          && types[0] == Device.class && (size instanceof Grid ? types[1] == Grid.class : types[1] == int.class)
          && (args.length == 0 || java.util.Arrays.stream(types).skip(2).noneMatch(t -> t.getName().startsWith("dev.kiln.")))) {
        return method;
      }
    }
    throw new AssertionError("no launcher method " + launcher.getSimpleName() + "." + name + " for Java arrays");
  }

  /** What differs between two arguments after the runs, or null: bit for bit, or within a relative tolerance for floats. */
  private static String difference(Object expected, Object actual, double tolerance) {
    if (expected instanceof float[] want && actual instanceof float[] got && tolerance > 0) {
      for (int i = 0; i < want.length; i++) {
        double scale = Math.max(1, Math.abs(want[i])); // absolute below 1: a put price is a difference of terms near 50
        boolean same = Float.compare(want[i], got[i]) == 0 || Math.abs(want[i] - got[i]) <= tolerance * scale;
        if (!same) {
          return "element " + i + ": " + want[i] + " as Java, " + got[i];
        }
      }
      return null;
    }
    if (expected instanceof boolean[] want && actual instanceof boolean[] got) {
      return java.util.Arrays.equals(want, got) ? null : "booleans differ at " + java.util.Arrays.mismatch(want, got);
    }
    if (expected != null && expected.getClass().isArray()) {
      try {
        Bits.assertSameBits("", expected, actual);
      } catch (AssertionError e) {
        return e.getMessage();
      }
    }
    return null;
  }
}
