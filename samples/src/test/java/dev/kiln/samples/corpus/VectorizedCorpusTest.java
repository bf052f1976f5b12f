package dev.kiln.samples.corpus;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.samples.testing.KilnJavac;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole kernel corpus compiled twice, vectorized and with {@code -Akiln.vectorize=false}, gives
 * the same results on Vulkan for every launcher of a kernel or group whose module the two builds
 * write differently (the others are the same module twice): the same buffers bit for bit, or the
 * same exception. (CorpusTest checks the vectorized build against Java on the CPU backend.)
 * Arguments are random: floats in [-8, 8), ints in [0, 64) (kernels use some as indices), counts
 * that are not multiples of 4.
 */
class VectorizedCorpusTest extends BothDevices {
  private static final Path CORPUS = Path.of("../processor/src/test/resources/corpus");
  private static final int[] SIZES = {1, 67, 1029};

  @Test
  void vectorizedAndScalarBuildsAgree(@TempDir Path dir) throws Exception {
    List<Path> sources;
    try (Stream<Path> files = Files.list(CORPUS)) {
      sources = files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    ClassLoader vectorized = compile(dir.resolve("vectorized"), sources, true);
    ClassLoader scalar = compile(dir.resolve("scalar"), sources, false);
    List<String> launchers;
    try (Stream<Path> files = Files.list(dir.resolve("vectorized/corpus"))) {
      launchers = files.map(f -> f.getFileName().toString())
          .filter(name -> name.endsWith("Kernels.class"))
          .map(name -> "corpus." + name.substring(0, name.length() - ".class".length()))
          .sorted().toList();
    }
    int compared = 0;
    for (String launcher : launchers) {
      Class<?> vectorizedClass = vectorized.loadClass(launcher);
      Class<?> scalarClass = scalar.loadClass(launcher);
      List<Method> methods = Arrays.stream(vectorizedClass.getMethods())
          .filter(m -> Modifier.isStatic(m.getModifiers()) && m.getParameterCount() >= 2
              && m.getParameterTypes()[0] == Device.class && m.getParameterTypes()[1] == int.class
              && Arrays.stream(m.getParameterTypes()).skip(1).allMatch(t -> t.isPrimitive() || t.isArray()))
          .sorted(Comparator.comparing(Method::toString))
          .toList();
      String flat = launcher.substring("corpus.".length(), launcher.length() - "Kernels".length());
      for (Method method : methods) {
        if (!differs(dir, flat + "." + method.getName() + ".spv") && !differs(dir, flat + "." + method.getName()
            + ".group.spv")) {
          continue;
        }
        Method twin = scalarClass.getMethod(method.getName(), method.getParameterTypes());
        for (int n : SIZES) {
          compare(method, twin, n);
          compared++;
        }
      }
    }
    System.out.printf("vectorized corpus: %d launches of kernels the two builds compile differently agree%n",
        compared);
    assertTrue(compared > 60, "compared only " + compared + " launches");
  }

  /** Whether the two builds wrote the module {@code name} differently (false where neither wrote it). */
  private static boolean differs(Path dir, String name) throws IOException {
    Path vectorized = dir.resolve("vectorized/corpus").resolve(name);
    Path scalar = dir.resolve("scalar/corpus").resolve(name);
    return Files.exists(vectorized) && Files.mismatch(vectorized, scalar) >= 0;
  }

  private static void compare(Method vectorized, Method scalar, int n) throws IllegalAccessException {
    Object[] first = arguments(vectorized, n, new Random(n * 31L + vectorized.getName().hashCode()));
    Object[] second = arguments(vectorized, n, new Random(n * 31L + vectorized.getName().hashCode()));
    String what = vectorized.getDeclaringClass().getSimpleName() + "." + vectorized.getName()
        + Arrays.toString(vectorized.getParameterTypes()) + " at n = " + n;
    Throwable thrownVectorized = invoke(vectorized, first);
    Throwable thrownScalar = invoke(scalar, second);
    assertEquals(thrownScalar == null ? null : thrownScalar.getClass(),
        thrownVectorized == null ? null : thrownVectorized.getClass(), () -> what + ": " + thrownVectorized);
    if (thrownVectorized == null) {
      for (int i = 2; i < first.length; i++) {
        if (first[i].getClass().isArray()) {
          Bits.assertSameBits(what + " argument " + i, second[i], first[i]);
        }
      }
    }
  }

  private static Throwable invoke(Method method, Object[] args) throws IllegalAccessException {
    try {
      method.invoke(null, args);
      return null;
    } catch (InvocationTargetException e) {
      return e.getCause();
    }
  }

  /** The device, the count {@code n}, then a random value of each parameter's type. */
  private static Object[] arguments(Method method, int n, Random random) {
    Class<?>[] types = method.getParameterTypes();
    Object[] args = new Object[types.length];
    args[0] = vulkan;
    args[1] = n;
    for (int i = 2; i < types.length; i++) {
      Class<?> type = types[i];
      int length = n + random.nextInt(5);
      if (type == float[].class) {
        args[i] = Bits.randomFloats(random, length, 8f);
      } else if (type == int[].class) {
        args[i] = random.ints(length, 0, 64).toArray();
      } else if (type == long[].class) {
        args[i] = random.longs(length, 0, 64).toArray();
      } else if (type == double[].class) {
        args[i] = random.doubles(length, -8, 8).toArray();
      } else if (type == int.class) {
        args[i] = random.nextInt(1, 64);
      } else if (type == long.class) {
        args[i] = (long) random.nextInt(1, 64);
      } else if (type == float.class) {
        args[i] = random.nextFloat(-8f, 8f);
      } else if (type == double.class) {
        args[i] = random.nextDouble(-8, 8);
      } else {
        throw new IllegalArgumentException("no random " + type);
      }
    }
    return args;
  }

  private static ClassLoader compile(Path out, List<Path> sources, boolean vectorize) throws IOException {
    Files.createDirectories(out);
    var errors = KilnJavac.compile(out, sources, "-Akiln.vectorize=" + vectorize);
    assertTrue(errors.isEmpty(), () -> "the corpus does not compile: " + errors);
    return new CorpusFirst(out.toUri().toURL());
  }

  /**
   * Loads the corpus's classes and modules from one compile, before the test class path's (which
   * holds Maven's compile of the same sources); everything else as usual.
   */
  private static final class CorpusFirst extends URLClassLoader {
    CorpusFirst(URL classes) {
      super(new URL[] {classes}, VectorizedCorpusTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("corpus.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        return loaded != null ? loaded : findClass(name);
      }
    }

    @Override
    public URL getResource(String name) {
      URL own = name.startsWith("corpus/") ? findResource(name) : null;
      return own != null ? own : super.getResource(name);
    }
  }
}
