package dev.kiln.bench.host;

import dev.kiln.Device;
import dev.kiln.bench.ElementwiseKernels;
import dev.kiln.bench.ImageChainKernels;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * A fuse group on the CPU backend against its arms launched one after the other: {@code image}, a
 * 1920 x 1080 RGB image through exposure, gamma ({@code Gpu.pow}), clamping and quantizing (the
 * group that was slower fused), and {@code chain}, the 4-arm elementwise chain over 2^22 floats,
 * which C2 vectorizes whole. {@code -Dkiln.cpu.groupForm=fused|tiled} (through {@code -jvmArgs})
 * fixes the group's form; by default it is chosen by timing both.
 *
 * <p>{@code java -cp ... org.openjdk.jmh.Main CpuFusionCost}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED",
    "-Dorg.lwjgl.system.memoryBackend=org.lwjgl.system.MemoryBackendFFM"})
public class CpuFusionCost {
  @Param({"image", "chain"})
  public String work;

  private Device cpu;
  private float[] data;
  private int[] bytes;

  @Setup
  public void setUp() {
    cpu = Device.open("cpu");
    int n = work.equals("image") ? 1920 * 1080 * 3 : 1 << 22;
    Random random = new Random(1);
    data = new float[n];
    for (int i = 0; i < n; i++) {
      data[i] = random.nextFloat();
    }
    bytes = new int[n];
  }

  @TearDown
  public void tearDown() {
    cpu.close();
  }

  @Benchmark
  public void group() {
    if (work.equals("image")) {
      ImageChainKernels.image(cpu, data.length, data, 1.001f, 1f / 2.2f, bytes);
    } else {
      ElementwiseKernels.chain(cpu, data.length, data, 1.0001f, 0.0001f, -1f, 2f);
    }
  }

  @Benchmark
  public void arms() {
    int n = data.length;
    if (work.equals("image")) {
      ImageChainKernels.exposure(cpu, n, data, 1.001f);
      ImageChainKernels.gamma(cpu, n, data, 1f / 2.2f);
      ImageChainKernels.clamp(cpu, n, data);
      ImageChainKernels.quantize(cpu, n, data, bytes);
    } else {
      ElementwiseKernels.scale(cpu, n, data, 1.0001f);
      ElementwiseKernels.shift(cpu, n, data, 0.0001f);
      ElementwiseKernels.floor(cpu, n, data, -1f);
      ElementwiseKernels.ceiling(cpu, n, data, 2f);
    }
  }
}
