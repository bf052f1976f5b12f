package dev.kiln.bench.host;

import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The processor's cost inside javac: one file of {@value #KERNELS} kernels (five shapes: elementwise,
 * a loop, a helper call, workgroup memory with a barrier, a switch) compiled with and without the
 * Kiln processor; the difference over {@value #KERNELS} is its time per kernel. Needs a JDK (javac).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(1)
public class ProcessorCost {
  static final int KERNELS = 50;

  @Param({"true", "false"})
  public boolean processor;

  private Path out;
  private Path source;

  @Setup
  public void writeKernels() throws IOException {
    Path dir = Files.createTempDirectory("kiln-processor-cost");
    out = Files.createDirectories(dir.resolve("classes"));
    source = dir.resolve("Fifty.java");
    Files.writeString(source, fiftyKernels());
  }

  @Benchmark
  public boolean compile() throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      List<String> options = new ArrayList<>(List.of("-d", out.toString(), "-classpath",
          System.getProperty("java.class.path")));
      if (!processor) {
        options.add("-proc:none");
      }
      JavaCompiler.CompilationTask task = javac.getTask(null, files, null, options, null,
          files.getJavaFileObjects(source));
      if (processor) {
        task.setProcessors(List.of(new KilnProcessor()));
      }
      return task.call();
    }
  }

  static String fiftyKernels() {
    StringBuilder text = new StringBuilder("""
        import dev.kiln.Gpu;
        import dev.kiln.annotations.Kernel;
        final class Fifty {
          static float smooth(float x) {
            float t = Math.min(Math.max(x, 0f), 1f);
            return t * t * (3f - 2f * t);
          }
        """);
    for (int k = 0; k < KERNELS; k++) {
      text.append((switch (k % 5) {
        case 0 -> """
              @Kernel static void k%d(float a, float[] x, float[] y) {
                int i = Gpu.globalId(0);
                if (i < y.length) { y[i] = a * x[i] + y[i]; }
              }
            """;
        case 1 -> """
              @Kernel static void k%d(float[] x, float[] sums) {
                int i = Gpu.globalId(0);
                if (i < sums.length) {
                  float s = 0f;
                  for (int j = 0; j < 16; j++) { s += x[(i + j) %% x.length]; }
                  sums[i] = s;
                }
              }
            """;
        case 2 -> """
              @Kernel static void k%d(float[] x) {
                int i = Gpu.globalId(0);
                if (i < x.length) { x[i] = smooth(x[i]); }
              }
            """;
        case 3 -> """
              @Kernel(workgroup = 64) static void k%d(float[] x, float[] out) {
                float[] tile = Gpu.sharedFloats(64);
                int i = Gpu.globalId(0);
                int l = Gpu.localId(0);
                tile[l] = i < x.length ? x[i] : 0f;
                Gpu.barrier();
                if (i < out.length) { out[i] = tile[63 - l]; }
              }
            """;
        default -> """
              @Kernel static void k%d(int[] codes, float[] out) {
                int i = Gpu.globalId(0);
                if (i < out.length && i < codes.length) {
                  out[i] = switch (codes[i] & 3) { case 0 -> 1f; case 1 -> -1f; case 2 -> 0.5f; default -> 0f; };
                }
              }
            """;
      }).formatted(k));
    }
    return text.append("}\n").toString();
  }
}
