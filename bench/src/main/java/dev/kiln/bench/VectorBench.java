package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Gpu;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import dev.kiln.internal.Dispatch;
import java.util.Arrays;
import java.util.List;

/**
 * The vectorization experiments: {@link Elementwise}'s kernels (4 floats per invocation) against
 * their {@code vec4} GLSL twins and the scalar GLSL copy, Kiln's scalar copy, and with
 * {@code coarsening} how much each invocation should move (GLSL copies of 1, 2 and 4 vectors, a
 * grid-stride loop, doubles). GPU time per launch, median by {@link Measure}'s protocol.
 *
 * <p>{@code java -cp ... dev.kiln.bench.VectorBench [coarsening] [log2 sizes...]} (default 24 26 28)
 */
public final class VectorBench {
  private VectorBench() {}

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
  static void copyDoubles(@Buffer(Access.READ) double[] from, @Buffer(Access.WRITE) double[] to) {
    int i = Gpu.globalId(0);
    if (i < to.length) {
      to[i] = from[i];
    }
  }

  private static final KernelSpec COPY1 = GlslTwins.twin("copy1", List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE)));
  private static final List<KernelSpec.Param> COPY_PARAMS = List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE));
  private static final KernelSpec COPY8 = GlslTwins.twin("copy8", COPY_PARAMS);
  private static final KernelSpec COPY8S = GlslTwins.twin("copy8s", COPY_PARAMS);
  private static final KernelSpec COPY16S = GlslTwins.twin("copy16s", COPY_PARAMS);
  private static final KernelSpec COPY_STRIDE = GlslTwins.twin("copystride", List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE),
      KernelSpec.Param.scalar("total", NumericType.INT)));
  private static final List<KernelSpec.Param> DOUBLE_PARAMS = List.of(
      KernelSpec.Param.buffer("from", NumericType.DOUBLE, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.DOUBLE, Access.WRITE));
  private static final KernelSpec DCOPY2 = GlslTwins.twin("dcopy2", DOUBLE_PARAMS);
  private static final KernelSpec DCOPY4 = GlslTwins.twin("dcopy4", DOUBLE_PARAMS);
  /** Workgroups of the grid-stride copy: 16 per multiprocessor of an H200 (132). */
  private static final int STRIDE_WORKGROUPS = 132 * 16;

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("coarsening")) {
      coarsening(Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray());
      return;
    }
    int[] sizes = args.length == 0 ? new int[] {24, 26, 28}
        : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s (%s); GPU time, median of %d runs; GB/s counts bytes read and written%n",
          device.name(), device.backend(), Measure.RUNS);
      System.out.printf("%-6s %-6s %10s %10s %10s %8s%n", "n", "kernel", "Kiln ms", "vec4 ms", "scalar ms",
          "Kiln/vec4");
      for (int log : sizes) {
        int n = 1 << log;
        try (FloatArray x = device.floats(n); FloatArray y = device.floats(n)) {
          long kiln = median(() -> time(() -> ElementwiseKernels.copy(device, n, x, y)));
          long vec4 = median(() -> time(() -> Dispatch.dispatch(device, GlslTwins.COPY4, n / 4, x, y)));
          long scalar = median(() -> time(() -> Dispatch.dispatch(device, COPY1, n, x, y)));
          row(n, "copy", 8L * n, kiln, vec4, scalar);
          long kilnScalar = median(() -> time(() -> VectorBenchKernels.copyScalar(device, n, x, y, 0)));
          System.out.printf("2^%-4d %-6s %10.4f %10s %10.4f %8s   (Kiln scalar / GLSL scalar %.3f)%n",
              log, "copy1", kilnScalar / 1e6, "", scalar / 1e6, "", (double) scalar / kilnScalar);
          kiln = median(() -> time(() -> ElementwiseKernels.saxpy(device, n, 1.0001f, x, y)));
          vec4 = median(() -> time(() -> Dispatch.dispatch(device, GlslTwins.SAXPY4, n / 4, x, y, 1.0001f)));
          row(n, "saxpy", 12L * n, kiln, vec4, -1);
          kiln = median(() -> time(() -> ElementwiseKernels.chain(device, n, y, 1.0001f, 0.5f, -4f, 4f)));
          vec4 = median(() -> time(() -> Dispatch.dispatch(device, GlslTwins.CHAIN4, n / 4, y, 1.0001f, 0.5f, -4f, 4f)));
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
      System.out.printf("%s; copy, GPU ms, median of %d runs%n", device.name(), Measure.RUNS);
      System.out.printf("%-6s %8s %8s %8s %8s %8s %8s | %8s %8s %8s%n", "n", "Kiln", "vec4", "2 vec4", "2 apart",
          "4 apart", "stride", "Kiln f64", "dvec2", "2 dvec2");
      for (int log : sizes) {
        int n = 1 << log;
        try (FloatArray x = device.floats(n); FloatArray y = device.floats(n);
            dev.kiln.DoubleArray dx = device.doubles(n); dev.kiln.DoubleArray dy = device.doubles(n)) {
          long kiln = median(() -> time(() -> ElementwiseKernels.copy(device, n, x, y)));
          long one = median(() -> time(() -> Dispatch.dispatch(device, GlslTwins.COPY4, n / 4, x, y)));
          long two = median(() -> time(() -> Dispatch.dispatch(device, COPY8, n / 8, x, y)));
          long twoApart = median(() -> time(() -> Dispatch.dispatch(device, COPY8S, n / 8, x, y)));
          long fourApart = median(() -> time(() -> Dispatch.dispatch(device, COPY16S, n / 16, x, y)));
          long stride = median(() -> time(() -> Dispatch.dispatch(device, COPY_STRIDE,
              Math.min(n / 4, STRIDE_WORKGROUPS * 256), x, y, n / 4)));
          long kilnDoubles = median(() -> time(() -> VectorBenchKernels.copyDoubles(device, n, dx, dy)));
          long dvec2 = median(() -> time(() -> Dispatch.dispatch(device, DCOPY2, n / 2, dx, dy)));
          long twoDvec2 = median(() -> time(() -> Dispatch.dispatch(device, DCOPY4, n / 4, dx, dy)));
          System.out.printf("2^%-4d %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f | %8.4f %8.4f %8.4f%n", log, kiln / 1e6,
              one / 1e6, two / 1e6, twoApart / 1e6, fourApart / 1e6, stride / 1e6, kilnDoubles / 1e6, dvec2 / 1e6,
              twoDvec2 / 1e6);
        }
      }
    }
  }

  /** The median GPU nanoseconds of {@code run}, by the suite's protocol ({@link Measure}). */
  private static long median(java.util.function.LongSupplier run) {
    return Math.round(Measure.gpu(run).medianMs() * 1e6);
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
