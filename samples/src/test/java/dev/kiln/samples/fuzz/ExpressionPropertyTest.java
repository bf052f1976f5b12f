package dev.kiln.samples.fuzz;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.samples.testing.KilnJavac;
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
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property: any int or float expression of the kernel language, compiled by the processor and run
 * on Vulkan, gives Java's result bit for bit. Random expression trees are written as kernels,
 * compiled by javac with the Kiln processor (vectorized and forced scalar), loaded, and run on both
 * devices on random inputs (with specials: NaN, signed zeros, infinities, int extremes).
 */
class ExpressionPropertyTest extends BothDevices {
  private static final int KERNELS = 60;
  private static final int N = 1001;
  private static final long SEED = Long.getLong("kiln.propertySeed", 20261130L);

  /** Vectorized (4 elements per invocation: the vector path and the tail) and forced scalar. */
  @ParameterizedTest(name = "kiln.vectorize={0}")
  @ValueSource(booleans = {true, false})
  void randomExpressionsGiveJavasResults(boolean vectorize, @TempDir Path dir) throws Exception {
    RandomExpressions expressions = new RandomExpressions(new Random(SEED));
    List<String> sources = new ArrayList<>();
    StringBuilder source = new StringBuilder("""
        package prop;

        import dev.kiln.Gpu;
        import dev.kiln.annotations.Kernel;

        public final class Expressions {
        """);
    for (int k = 0; k < KERNELS; k++) {
      boolean floats = k % 2 == 1;
      String expression = floats ? expressions.floatExpression(4) : expressions.intExpression(4);
      sources.add(expression);
      source.append("""
            @Kernel
            static void k%d(int[] as, int[] bs, float[] xs, float[] ys, %s[] out) {
              int i = Gpu.globalId(0);
              if (i < out.length) {
                int a = as[i];
                int b = bs[i];
                float x = xs[i];
                float y = ys[i];
                out[i] = %s;
              }
            }
          """.formatted(k, floats ? "float" : "int", expression));
    }
    source.append("}\n");
    ClassLoader loader = compile(dir, source.toString(), vectorize);
    Class<?> launcher = loader.loadClass("prop.ExpressionsKernels");

    Random random = new Random(SEED + 1);
    int[] as = ints(random);
    int[] bs = ints(random);
    float[] xs = floats(random);
    float[] ys = floats(random);
    for (int k = 0; k < KERNELS; k++) {
      boolean floats = k % 2 == 1;
      Method method = launcher.getMethod("k" + k, Device.class, int.class, int[].class, int[].class, float[].class,
          float[].class, floats ? float[].class : int[].class);
      Object onMethod = floats ? new float[N] : new int[N];
      Object onCpu = floats ? new float[N] : new int[N];
      Object onVulkan = floats ? new float[N] : new int[N];
      run(method, cpuMethods, as, bs, xs, ys, onMethod);
      run(method, cpu, as, bs, xs, ys, onCpu);
      run(method, vulkan, as, bs, xs, ys, onVulkan);
      String what = "kernel k" + k + " computing " + sources.get(k) + " (seed " + SEED + ")";
      Bits.assertSameBits(what + ", CPU twin against method", onMethod, onCpu);
      Bits.assertSameBits(what, onCpu, onVulkan);
    }
  }

  private static void run(Method method, Device device, Object... arrays) throws IllegalAccessException {
    try {
      method.invoke(null, device, N, arrays[0], arrays[1], arrays[2], arrays[3], arrays[4]);
    } catch (InvocationTargetException e) {
      throw new AssertionError(method.getName() + " failed on " + device.backend(), e.getCause());
    }
  }

  private static ClassLoader compile(Path dir, String source, boolean vectorize) throws IOException {
    Path file = dir.resolve("prop/Expressions.java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, source);
    var errors = KilnJavac.compile(dir, List.of(file), "-Akiln.vectorize=" + vectorize);
    assertTrue(errors.isEmpty(), () -> "generated kernels do not compile: " + errors + "\n" + source);
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, ExpressionPropertyTest.class.getClassLoader());
  }

  private static int[] ints(Random random) {
    int[] values = Bits.randomInts(random, N);
    values[0] = Integer.MIN_VALUE;
    values[1] = Integer.MAX_VALUE;
    values[2] = 0;
    values[3] = -1;
    return values;
  }

  private static float[] floats(Random random) {
    float[] values = Bits.randomFloats(random, N, 1e4f);
    float[] specials = {Float.NaN, 0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0.5f, -2.5f, 1e-3f};
    System.arraycopy(specials, 0, values, 0, specials.length);
    return values;
  }
}
