package dev.kiln.samples;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Gpu;
import dev.kiln.KernelSpec;
import dev.kiln.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Arrays;
import java.util.List;

/**
 * Kiln's elementwise kernels (vectorized by the processor: 4 floats per invocation) against the
 * same kernels hand-written in GLSL with {@code vec4} (and a scalar copy), compiled with
 * {@code glslc -O} and run through the same runtime, side by side: copy, saxpy and a fused 4-op
 * chain {@code min(max(x * a + b, lo), hi)}. GPU time per launch from timestamps, median of the
 * runs, each measurement after two seconds of warm-up right before it.
 *
 * <p>{@code java -cp ... dev.kiln.samples.VectorBench [log2 sizes...]} (default 24 26 28)
 */
public final class VectorBench {
  private static final int RUNS = 30;

  private VectorBench() {}

  @Kernel(workgroup = 256)
  static void copy(@Buffer(Access.READ) float[] from, @Buffer(Access.WRITE) float[] to) {
    int i = Gpu.globalId(0);
    if (i < to.length) {
      to[i] = from[i];
    }
  }

  /**
   * A copy that the processor does not vectorize (the index is not exactly Gpu.globalId(0)): Kiln's
   * scalar code generation, against the scalar GLSL copy. Run with offset 0.
   */
  @Kernel(workgroup = 256)
  static void copyScalar(@Buffer(Access.READ) float[] from, @Buffer(Access.WRITE) float[] to, int offset) {
    int i = Gpu.globalId(0) + offset;
    if (i < to.length) {
      to[i] = from[i];
    }
  }

  @Kernel(workgroup = 256)
  static void saxpy(float a, @Buffer(Access.READ) float[] x, float[] y) {
    int i = Gpu.globalId(0);
    if (i < y.length) {
      y[i] = a * x[i] + y[i];
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void scale(float[] data, float a) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = data[i] * a;
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void shift(float[] data, float b) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = data[i] + b;
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void floor(float[] data, float lo) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = Math.max(data[i], lo);
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("chain")
  static void ceiling(float[] data, float hi) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = Math.min(data[i], hi);
    }
  }

  @Kernel(workgroup = 256)
  static void copyDoubles(@Buffer(Access.READ) double[] from, @Buffer(Access.WRITE) double[] to) {
    int i = Gpu.globalId(0);
    if (i < to.length) {
      to[i] = from[i];
    }
  }

  private static KernelSpec glsl(String name, List<KernelSpec.Param> params) {
    return new KernelSpec(VectorBench.class, name, "glsl/" + name + ".spv", new int[] {256, 1, 1}, params, args -> {
      throw new UnsupportedOperationException("GLSL twins run on Vulkan only");
    });
  }

  private static final KernelSpec COPY4 = glsl("copy4", List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE)));
  private static final KernelSpec COPY1 = glsl("copy1", List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE)));
  private static final List<KernelSpec.Param> COPY_PARAMS = List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE));
  private static final KernelSpec COPY8 = glsl("copy8", COPY_PARAMS);
  private static final KernelSpec COPY8S = glsl("copy8s", COPY_PARAMS);
  private static final KernelSpec COPY16S = glsl("copy16s", COPY_PARAMS);
  private static final KernelSpec COPY_STRIDE = glsl("copystride", List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE),
      KernelSpec.Param.scalar("total", NumericType.INT)));
  private static final List<KernelSpec.Param> DOUBLE_PARAMS = List.of(
      KernelSpec.Param.buffer("from", NumericType.DOUBLE, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.DOUBLE, Access.WRITE));
  private static final KernelSpec DCOPY2 = glsl("dcopy2", DOUBLE_PARAMS);
  private static final KernelSpec DCOPY4 = glsl("dcopy4", DOUBLE_PARAMS);
  /** Workgroups of the grid-stride copy: 16 per multiprocessor of an H200 (132). */
  private static final int STRIDE_WORKGROUPS = 132 * 16;
  private static final KernelSpec SAXPY4 = glsl("saxpy4", List.of(
      KernelSpec.Param.buffer("x", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("y", NumericType.FLOAT, Access.READ_WRITE),
      KernelSpec.Param.scalar("a", NumericType.FLOAT)));
  private static final KernelSpec CHAIN4 = glsl("chain4", List.of(
      KernelSpec.Param.buffer("data", NumericType.FLOAT, Access.READ_WRITE),
      KernelSpec.Param.scalar("a", NumericType.FLOAT), KernelSpec.Param.scalar("b", NumericType.FLOAT),
      KernelSpec.Param.scalar("lo", NumericType.FLOAT), KernelSpec.Param.scalar("hi", NumericType.FLOAT)));

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("coarsening")) {
      coarsening(Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray());
      return;
    }
    int[] sizes = args.length == 0 ? new int[] {24, 26, 28} : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s (%s); GPU time, median of %d runs; GB/s counts bytes read and written%n",
          device.name(), device.backend(), RUNS);
      System.out.printf("%-6s %-6s %10s %10s %10s %8s%n", "n", "kernel", "Kiln ms", "vec4 ms", "scalar ms",
          "Kiln/vec4");
      for (int log : sizes) {
        int n = 1 << log;
        try (FloatArray x = device.floats(n); FloatArray y = device.floats(n)) {
          long kiln = GpuTimes.median(RUNS, () -> time(() -> VectorBenchKernels.copy(device, n, x, y)));
          long vec4 = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(COPY4, n / 4, x, y)));
          long scalar = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(COPY1, n, x, y)));
          row(n, "copy", 8L * n, kiln, vec4, scalar);
          long kilnScalar = GpuTimes.median(RUNS,
              () -> time(() -> VectorBenchKernels.copyScalar(device, n, x, y, 0)));
          System.out.printf("2^%-4d %-6s %10.4f %10s %10.4f %8s   (Kiln scalar / GLSL scalar %.3f)%n",
              log, "copy1", kilnScalar / 1e6, "", scalar / 1e6, "", (double) scalar / kilnScalar);
          kiln = GpuTimes.median(RUNS, () -> time(() -> VectorBenchKernels.saxpy(device, n, 1.0001f, x, y)));
          vec4 = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(SAXPY4, n / 4, x, y, 1.0001f)));
          row(n, "saxpy", 12L * n, kiln, vec4, -1);
          kiln = GpuTimes.median(RUNS,
              () -> time(() -> VectorBenchKernels.chain(device, n, y, 1.0001f, 0.5f, -4f, 4f)));
          vec4 = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(CHAIN4, n / 4, y, 1.0001f, 0.5f, -4f, 4f)));
          row(n, "chain", 8L * n, kiln, vec4, -1);
        }
      }
    }
  }

  /**
   * How much each invocation should move: GLSL copies with 1, 2 and 4 vec4s per invocation (adjacent
   * or a part of the buffer apart) and a grid-stride loop, Kiln's copy (one vec4), and for doubles
   * one dvec2 against two (Kiln's choice: 4 doubles per invocation, two 16-byte loads).
   */
  private static void coarsening(int[] sizes) {
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s; copy, GPU ms, median of %d runs%n", device.name(), RUNS);
      System.out.printf("%-6s %8s %8s %8s %8s %8s %8s | %8s %8s %8s%n", "n", "Kiln", "vec4", "2 vec4", "2 apart",
          "4 apart", "stride", "Kiln f64", "dvec2", "2 dvec2");
      for (int log : sizes) {
        int n = 1 << log;
        try (FloatArray x = device.floats(n); FloatArray y = device.floats(n);
            dev.kiln.DoubleArray dx = device.doubles(n); dev.kiln.DoubleArray dy = device.doubles(n)) {
          long kiln = GpuTimes.median(RUNS, () -> time(() -> VectorBenchKernels.copy(device, n, x, y)));
          long one = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(COPY4, n / 4, x, y)));
          long two = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(COPY8, n / 8, x, y)));
          long twoApart = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(COPY8S, n / 8, x, y)));
          long fourApart = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(COPY16S, n / 16, x, y)));
          long stride = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(COPY_STRIDE,
              Math.min(n / 4, STRIDE_WORKGROUPS * 256), x, y, n / 4)));
          long kilnDoubles = GpuTimes.median(RUNS, () -> time(() -> VectorBenchKernels.copyDoubles(device, n, dx, dy)));
          long dvec2 = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(DCOPY2, n / 2, dx, dy)));
          long twoDvec2 = GpuTimes.median(RUNS, () -> time(() -> device.dispatch(DCOPY4, n / 4, dx, dy)));
          System.out.printf("2^%-4d %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f | %8.4f %8.4f %8.4f%n", log, kiln / 1e6,
              one / 1e6, two / 1e6, twoApart / 1e6, fourApart / 1e6, stride / 1e6, kilnDoubles / 1e6, dvec2 / 1e6,
              twoDvec2 / 1e6);
        }
      }
    }
  }

  private static long time(Runnable launch) {
    launch.run();
    return Device.lastDeviceNanos();
  }

  private static void row(int n, String kernel, long bytes, long kiln, long vec4, long scalar) {
    System.out.printf("2^%-4d %-6s %10.4f %10.4f %10s %8.3f   (Kiln %6.0f GB/s, vec4 %6.0f GB/s)%n",
        Integer.numberOfTrailingZeros(n), kernel, kiln / 1e6, vec4 / 1e6,
        scalar < 0 ? "" : String.format("%.4f", scalar / 1e6), (double) vec4 / kiln,
        bytes / (double) kiln, bytes / (double) vec4);
  }

}
