package dev.kiln.bench.host;

import dev.kiln.Device;
import dev.kiln.bench.WorkgroupsKernels;
import dev.kiln.samples.HistogramKernels;
import dev.kiln.samples.ScanKernels;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Kernels with workgroup memory and barriers on the CPU backend against plain Java loops doing the
 * same arithmetic, workgroup by workgroup on the common fork-join pool: the bench's tree sum
 * ({@code Workgroups.sum}), the samples' Hillis-Steele scan ({@code Scan.inclusiveScan}) and their
 * histogram through workgroup bins ({@code Histogram.histogramShared}), over {@code n} ints (not a
 * multiple of the workgroup of 256). Both sides use every core the JVM sees: run with {@code
 * -jvmArgsAppend -XX:ActiveProcessorCount=2} for two.
 *
 * <p>{@code java -cp ... org.openjdk.jmh.Main CpuWorkgroupCost}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED",
    "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"})
public class CpuWorkgroupCost {
  private static final int WORKGROUP = 256;
  private static final int BINS = 64;
  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);

  /** Ints in the input: about 2^20 and 2^24, neither a multiple of the workgroup. */
  @Param({"1048583", "16777259"})
  public int n;

  private Device cpu;
  private int[] values;
  private int[] data;
  private int[] totals;
  private final int[] total = new int[1];
  private final int[] bins = new int[BINS];

  @Setup
  public void setUp() {
    cpu = Device.open("cpu");
    values = new Random(1).ints(n).toArray();
    data = new int[n];
    totals = new int[Math.ceilDiv(n, WORKGROUP)];
  }

  @TearDown
  public void tearDown() {
    cpu.close();
  }

  @Benchmark
  public int treeSumKiln() {
    total[0] = 0;
    WorkgroupsKernels.sum(cpu, n, values, total);
    return total[0];
  }

  /** Each workgroup's 256 values into an array, halved 8 times, then one atomic add. */
  @Benchmark
  public int treeSumJava() {
    total[0] = 0;
    IntStream.range(0, totals.length).parallel().forEach(group -> {
      int[] partial = new int[WORKGROUP];
      for (int l = 0; l < WORKGROUP; l++) {
        int i = group * WORKGROUP + l;
        partial[l] = i < n ? values[i] : 0;
      }
      for (int stride = WORKGROUP / 2; stride > 0; stride >>= 1) {
        for (int l = 0; l < stride; l++) {
          partial[l] += partial[l + stride];
        }
      }
      INTS.getAndAdd(total, 0, partial[0]);
    });
    return total[0];
  }

  @Benchmark
  public int[] scanKiln() {
    System.arraycopy(values, 0, data, 0, n);
    ScanKernels.inclusiveScan(cpu, n, data, totals);
    return data;
  }

  /** Hillis and Steele in each workgroup: 8 steps, each reading every element's partner before adding. */
  @Benchmark
  public int[] scanJava() {
    System.arraycopy(values, 0, data, 0, n);
    IntStream.range(0, totals.length).parallel().forEach(group -> {
      int[] tile = new int[WORKGROUP];
      int[] before = new int[WORKGROUP];
      for (int l = 0; l < WORKGROUP; l++) {
        int i = group * WORKGROUP + l;
        tile[l] = i < n ? data[i] : 0;
      }
      for (int offset = 1; offset < WORKGROUP; offset <<= 1) {
        for (int l = 0; l < WORKGROUP; l++) {
          before[l] = l >= offset ? tile[l - offset] : 0;
        }
        for (int l = 0; l < WORKGROUP; l++) {
          tile[l] += before[l];
        }
      }
      for (int l = 0; l < WORKGROUP; l++) {
        int i = group * WORKGROUP + l;
        if (i < n) {
          data[i] = tile[l];
        }
      }
      totals[group] = tile[WORKGROUP - 1];
    });
    return data;
  }

  @Benchmark
  public int[] histogramKiln() {
    Arrays.fill(bins, 0);
    HistogramKernels.histogramShared(cpu, n, values, bins);
    return bins;
  }

  /** Each workgroup counts its 256 values into its own bins with atomics, then adds them to the global bins atomically. */
  @Benchmark
  public int[] histogramJava() {
    Arrays.fill(bins, 0);
    IntStream.range(0, totals.length).parallel().forEach(group -> {
      int[] local = new int[BINS];
      for (int l = 0; l < WORKGROUP; l++) {
        int i = group * WORKGROUP + l;
        if (i < n) {
          int value = values[i] % BINS;
          INTS.getAndAdd(local, value < 0 ? value + BINS : value, 1);
        }
      }
      for (int bin = 0; bin < BINS; bin++) {
        INTS.getAndAdd(bins, bin, local[bin]);
      }
    });
    return bins;
  }
}
