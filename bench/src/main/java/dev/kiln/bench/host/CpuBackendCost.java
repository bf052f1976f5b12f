package dev.kiln.bench.host;

import dev.kiln.Device;
import dev.kiln.Grid;
import dev.kiln.bench.ElementwiseKernels;
import dev.kiln.bench.WorkgroupsKernels;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The CPU backend against the same work written as parallel Java loops: saxpy over 2^24 floats, the
 * 5-point stencil on a 2048 x 2048 grid, and the per-workgroup scan of 2^16 ints (a kernel with
 * barriers, which the CPU backend runs one virtual thread per invocation).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CpuBackendCost {
  static final int N = 1 << 24;
  static final int SIDE = 2048;
  static final int SCANNED = 1 << 16;

  private Device cpu;
  private final float[] x = new float[N];
  private final float[] y = new float[N];
  private final float[] grid = new float[SIDE * SIDE];
  private final float[] next = new float[SIDE * SIDE];
  private final int[] values = IntStream.range(0, SCANNED).toArray();
  private final int[] sums = new int[SCANNED];

  @Setup(Level.Trial)
  public void open() {
    cpu = Device.open("cpu");
  }

  @TearDown(Level.Trial)
  public void close() {
    cpu.close();
  }

  @Benchmark
  public float[] saxpyKiln() {
    ElementwiseKernels.saxpy(cpu, N, 1.0001f, x, y);
    return y;
  }

  @Benchmark
  public float[] saxpyParallelLoop() {
    IntStream.range(0, N).parallel().forEach(i -> y[i] = 1.0001f * x[i] + y[i]);
    return y;
  }

  @Benchmark
  public float[] stencilKiln() {
    WorkgroupsKernels.stencil(cpu, Grid.of(SIDE, SIDE), grid, next, SIDE, SIDE);
    return next;
  }

  @Benchmark
  public float[] stencilParallelLoop() {
    IntStream.range(0, SIDE).parallel().forEach(row -> {
      for (int column = 0; column < SIDE; column++) {
        int i = row * SIDE + column;
        next[i] = row == 0 || column == 0 || row == SIDE - 1 || column == SIDE - 1 ? grid[i]
            : 0.5f * grid[i] + 0.125f * (grid[i - 1] + grid[i + 1] + grid[i - SIDE] + grid[i + SIDE]);
      }
    });
    return next;
  }

  @Benchmark
  public int[] scanKiln() {
    WorkgroupsKernels.scan(cpu, SCANNED, values, sums);
    return sums;
  }

  @Benchmark
  public int[] scanParallelLoop() {
    IntStream.range(0, SCANNED / 256).parallel().forEach(block -> {
      int sum = 0;
      for (int i = block * 256; i < block * 256 + 256; i++) {
        sum += values[i];
        sums[i] = sum;
      }
    });
    return sums;
  }
}
