package dev.kiln.bench.host;

import dev.kiln.Device;
import dev.kiln.Grid;
import dev.kiln.bench.ElementwiseKernels;
import dev.kiln.bench.WorkgroupsKernels;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The CPU backend against the same work written as parallel Java loops ({@code IntStream.parallel()}):
 * copy and saxpy over 2^{@code log2} floats, the fused 4-arm chain (one launch of the group), the
 * 5-point stencil on a square grid of as many points, and the per-workgroup scan and the histogram
 * of 2^{@code log2Barriers} ints (kernels with barriers). {@code path} picks how the backend runs
 * kernels: {@code twin}, the CPU twins the processor generates, or {@code java}, the kernel methods
 * themselves ({@code -Dkiln.cpu=java}, one call per invocation, one virtual thread per invocation
 * with barriers).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx24g"})
public class CpuBackendCost {
  @Param({"twin", "java"})
  public String path;

  @Param({"26"})
  public int log2;

  @Param({"20"})
  public int log2Barriers;

  private Device cpu;
  private int n;
  private int side;
  private float[] x;
  private float[] y;
  private float[] grid;
  private float[] next;
  private int[] values;
  private int[] sums;
  private int[] bins;

  @Setup(Level.Trial)
  public void open() {
    System.setProperty("kiln.cpu", path);
    cpu = Device.open("cpu");
    System.clearProperty("kiln.cpu");
    n = 1 << log2;
    side = 1 << (log2 / 2);
    Random random = new Random(1);
    x = new float[n];
    y = new float[n];
    for (int i = 0; i < n; i++) {
      x[i] = random.nextFloat();
      y[i] = random.nextFloat();
    }
    grid = x.clone();
    next = new float[side * side];
    values = random.ints(1 << log2Barriers).toArray();
    sums = new int[values.length];
    bins = new int[256];
  }

  @TearDown(Level.Trial)
  public void close() {
    cpu.close();
  }

  @Benchmark
  public float[] copyKiln() {
    ElementwiseKernels.copy(cpu, n, x, y);
    return y;
  }

  @Benchmark
  public float[] copyParallelLoop() {
    IntStream.range(0, n).parallel().forEach(i -> y[i] = x[i]);
    return y;
  }

  @Benchmark
  public float[] saxpyKiln() {
    ElementwiseKernels.saxpy(cpu, n, 1.0001f, x, y);
    return y;
  }

  @Benchmark
  public float[] saxpyParallelLoop() {
    IntStream.range(0, n).parallel().forEach(i -> y[i] = 1.0001f * x[i] + y[i]);
    return y;
  }

  @Benchmark
  public float[] chainKiln() {
    ElementwiseKernels.chain(cpu, n, y, 1.0001f, 0.5f, -2f, 2f);
    return y;
  }

  @Benchmark
  public float[] chainParallelLoop() {
    IntStream.range(0, n).parallel().forEach(i -> y[i] = Math.min(Math.max(y[i] * 1.0001f + 0.5f, -2f), 2f));
    return y;
  }

  @Benchmark
  public float[] stencilKiln() {
    WorkgroupsKernels.stencil(cpu, Grid.of(side, side), grid, next, side, side);
    return next;
  }

  @Benchmark
  public float[] stencilParallelLoop() {
    int s = side;
    IntStream.range(0, s).parallel().forEach(row -> {
      for (int column = 0; column < s; column++) {
        int i = row * s + column;
        next[i] = row == 0 || column == 0 || row == s - 1 || column == s - 1 ? grid[i]
            : 0.5f * grid[i] + 0.125f * (grid[i - 1] + grid[i + 1] + grid[i - s] + grid[i + s]);
      }
    });
    return next;
  }

  @Benchmark
  public int[] scanKiln() {
    WorkgroupsKernels.scan(cpu, values.length, values, sums);
    return sums;
  }

  @Benchmark
  public int[] scanParallelLoop() {
    IntStream.range(0, values.length / 256).parallel().forEach(block -> {
      int sum = 0;
      for (int i = block * 256; i < block * 256 + 256; i++) {
        sum += values[i];
        sums[i] = sum;
      }
    });
    return sums;
  }

  @Benchmark
  public int[] histogramKiln() {
    java.util.Arrays.fill(bins, 0);
    WorkgroupsKernels.histogram(cpu, values.length, values, bins);
    return bins;
  }

  @Benchmark
  public AtomicIntegerArray histogramParallelLoop() {
    AtomicIntegerArray counts = new AtomicIntegerArray(256);
    IntStream.range(0, values.length / 4096).parallel().forEach(block -> {
      int[] local = new int[256];
      for (int i = block * 4096; i < block * 4096 + 4096; i++) {
        local[values[i] & 255]++;
      }
      for (int b = 0; b < 256; b++) {
        counts.addAndGet(b, local[b]);
      }
    });
    return counts;
  }
}
