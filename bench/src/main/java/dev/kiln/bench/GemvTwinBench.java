package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.ShortArray;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.internal.Dispatch;
import dev.kiln.library.Gemv;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The float16 GEMV of a Llama decode step against hand-written GLSL, at the 1B model's shapes:
 * {@code Gemv.halves}; its twins in Java's order, {@code glsl/gemvhjava.comp} (32-byte chunks a lane
 * step, the library's order: its bits; {@code gemvhjava.template.comp} the same with the library's
 * float16 decode in pieces, its chunk check and its integer decode, and {@code gemvhjava_fc.spv} with
 * the float controls Kiln's modules declare) and {@code gemvhjava16.comp}
 * (16-byte chunks: the library's bits, {@code Tuning.GEMV_SHORT_CHUNK_BYTES} 16); the fastest GLSL we know ({@code
 * glsl/gemvh.template.comp}: fused multiply-adds, {@code UNROLL} 16-byte words in flight a lane,
 * {@code RPW} rows a warp, compiled by {@code bench/glsl.sh}); and a copy of the matrix's bytes (its
 * rate counted on the bytes read, half of those it moves). GPU time, medians of 30 after 1.5 s of
 * warm-up each; the last lines sum a step's GEMVs (16 layers of q/k/v, o, gate+up and down, then
 * the head) per variant. The twins fold a row's 32 lanes in one subgroup, so their results are
 * checked only where subgroups have 32 lanes (not on lavapipe).
 *
 * <p>{@code java -cp ... dev.kiln.bench.GemvTwinBench [small] [kiln | lanes]}: {@code small} takes
 * two small shapes instead; {@code kiln} times Kiln and its twins in Java's order alone; {@code
 * lanes} times Kiln, its 32-byte twin and the twin written in Kiln ({@link GemvLanes}), and the
 * 16-byte twin against its Kiln form ({@link GemvLanes#twinGrid16}).
 */
public final class GemvTwinBench {
  /** rows, cols, times a 1B step runs it. */
  private static final int[][] SHAPES = {
    {3072, 2048, 16}, {2048, 2048, 16}, {16384, 2048, 16}, {2048, 8192, 16}, {128256, 2048, 1}
  };

  private static final int[][] SMALL = {{300, 2048, 1}, {77, 8192, 1}};

  /**
   * The Java-order twin with Kiln's decode in pieces, its chunk check (c1) and its integer decode
   * (d1); and with the float controls every Kiln module declares (fc: fp32 denormals, signed zeros,
   * infinities and NaNs preserved).
   */
  private static final String[] DECODES = {"c0d1", "c1d0", "c1d1", "fc"};

  private static final String[] FAST = {"u1r1", "u2r1", "u4r1", "u1r2"};

  private GemvTwinBench() {}

  public static void main(String[] args) {
    String[] variants = new String[FAST.length + DECODES.length + 4];
    variants[0] = "Kiln";
    variants[1] = "java twin";
    variants[2] = "java twin 16";
    for (int v = 0; v < DECODES.length; v++) {
      variants[3 + v] = "gemvhjava_" + DECODES[v];
    }
    for (int v = 0; v < FAST.length; v++) {
      variants[3 + DECODES.length + v] = "gemvh_" + FAST[v];
    }
    variants[variants.length - 1] = "copy";
    double[] step = new double[variants.length];
    boolean small = List.of(args).contains("small");
    boolean kilnOnly = List.of(args).contains("kiln");
    boolean lanes = List.of(args).contains("lanes");
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s (%s, subgroups of %d)%n", device.name(), device.backend(), device.subgroupSize());
      if (device.subgroupSize() != 32) {
        System.out.println("the twins fold a row's 32 lanes in one subgroup: their results are not checked here");
      }
      for (int[] shape : small ? SMALL : SHAPES) {
        double[] ms = lanes ? lanes(device, shape[0], shape[1]) : shape(device, shape[0], shape[1], kilnOnly);
        for (int v = 0; v < ms.length; v++) {
          step[v] += shape[2] * ms[v];
        }
      }
    }
    if (small) {
      return; // the small shapes are a check, not a step
    }
    System.out.println("a 1B step's GEMVs (2.47 GB), ms:");
    if (lanes) {
      variants = new String[] {"Kiln", "java twin", "GemvLanes.twin", "GemvLanes.twinKinds", "GemvLanes.twinGrid",
          "java twin 16", "GemvLanes.twinGrid16", "GemvLanes.twinGrid16j", "GemvLanes.twinGrid16g"};
    }
    for (int v = 0; v < variants.length; v++) {
      if (step[v] > 0) { // else not run (the GLSL twins off Vulkan)
        System.out.printf("  %-14s %8.4f ms  %6.0f GB/s%n", variants[v], step[v], 2.471e9 / (step[v] * 1e6));
      }
    }
  }

  private static double[] shape(Device device, int rows, int cols, boolean kilnOnly) {
    int n = rows * cols;
    short[] halves = new short[n];
    SplittableRandom random = new SplittableRandom(rows + 31L * cols);
    for (int i = 0; i < n; i++) { // normal float16 only: the GPU's conversion of subnormals may differ
      float v = (float) (random.nextDouble() * 2 - 1) / 16;
      halves[i] = Float.floatToFloat16(Math.copySign(Math.max(Math.abs(v), 1e-3f), v));
    }
    float[] vector = new float[cols];
    for (int i = 0; i < cols; i++) {
      vector[i] = (float) (random.nextDouble() * 2 - 1);
    }
    double[] ms = new double[FAST.length + DECODES.length + 4];
    String shape = rows + "x" + cols;
    long bytes = 2L * n;
    try (ShortArray a = device.upload(halves);
        FloatArray x = device.upload(vector);
        FloatArray y = device.floats(rows);
        FloatArray from = device.floats(n / 2);
        FloatArray to = device.floats(n / 2)) {
      ms[0] = time(shape, "Kiln", bytes, () -> Gemv.halves(device, a, rows, cols, x, y, false));
      float[] kiln = y.toArray();
      KernelSpec java = twin("gemvhjava");
      ms[1] = time(shape, "java twin", bytes, () -> Dispatch.dispatch(device, java, rows * 32, a, x, y, rows, cols));
      compare(device, kiln, y.toArray(), 0, "java twin");
      KernelSpec java16 = twin("gemvhjava16");
      ms[2] = time(shape, "java twin 16", bytes, () -> Dispatch.dispatch(device, java16, rows * 32, a, x, y, rows, cols));
      compare(device, kiln, y.toArray(), 0, "java twin 16 (Kiln's bits where it reads 16-byte chunks)");
      for (int v = 0; v < DECODES.length; v++) {
        String name = "gemvhjava_" + DECODES[v];
        KernelSpec decode = twin(name);
        y.upload(new float[rows]);
        ms[3 + v] = time(shape, name, bytes, () -> Dispatch.dispatch(device, decode, rows * 32, a, x, y, rows, cols));
        compare(device, kiln, y.toArray(), 0, name);
      }
      if (kilnOnly) {
        return ms;
      }
      for (int v = 0; v < FAST.length; v++) {
        String name = "gemvh_" + FAST[v];
        KernelSpec fast = twin(name);
        int rpw = FAST[v].charAt(3) - '0';
        y.upload(new float[rows]);
        ms[3 + DECODES.length + v] = time(shape, name, bytes, () -> Dispatch.dispatch(device, fast, Math.ceilDiv(rows, rpw) * 32, a, x, y, rows, cols));
        compare(device, kiln, y.toArray(), 1e-4, name);
      }
      ms[ms.length - 1] = time(shape, "copy", bytes, () -> Dispatch.dispatch(device, GlslTwins.COPY4, n / 8, from, to));
    }
    return ms;
  }

  /** Kiln, the 32-byte twin in Java's order and {@link GemvLanes}' kernels at one shape. */
  private static double[] lanes(Device device, int rows, int cols) {
    short[] halves = new short[rows * cols];
    SplittableRandom random = new SplittableRandom(rows + 31L * cols);
    for (int i = 0; i < halves.length; i++) {
      halves[i] = Float.floatToFloat16((float) (random.nextDouble() * 2 - 1) / 16);
    }
    float[] vector = new float[cols];
    for (int i = 0; i < cols; i++) {
      vector[i] = (float) (random.nextDouble() * 2 - 1);
    }
    String shape = rows + "x" + cols;
    long bytes = 2L * rows * cols;
    double[] ms = new double[9];
    try (ShortArray a = device.upload(halves);
        FloatArray x = device.upload(vector);
        FloatArray y = device.floats(rows)) {
      ms[0] = time(shape, "Kiln", bytes, () -> Gemv.halves(device, a, rows, cols, x, y, false));
      float[] kiln = y.toArray();
      if (device.backend().equals("vulkan")) { // GLSL twins run on Vulkan only
        KernelSpec java = twin("gemvhjava");
        ms[1] = time(shape, "java twin", bytes, () -> Dispatch.dispatch(device, java, rows * 32, a, x, y, rows, cols));
        compare(device, kiln, y.toArray(), 0, "java twin");
      }
      int octets = cols / 8;
      y.upload(new float[rows]);
      ms[2] = time(shape, "lanes twin", bytes, () -> GemvLanesKernels.twin(device, rows * 32, a, x, y, rows, octets));
      compare(device, kiln, y.toArray(), 0, "GemvLanes.twin");
      y.upload(new float[rows]);
      ms[3] = time(shape, "lanes kinds", bytes, () -> GemvLanesKernels.twinKinds(device, Grid.of(32, rows), a, x, y, rows, octets, 0));
      compare(device, kiln, y.toArray(), 0, "GemvLanes.twinKinds");
      y.upload(new float[rows]);
      ms[4] = time(shape, "lanes grid", bytes, () -> GemvLanesKernels.twinGrid(device, Grid.of(32, rows), a, x, y, rows, octets));
      compare(device, kiln, y.toArray(), 0, "GemvLanes.twinGrid");
      y.upload(new float[rows]);
      ms[6] = time(shape, "lanes grid16", bytes, () -> GemvLanesKernels.twinGrid16(device, Grid.of(32, rows), a, x, y, rows, octets));
      float[] grid16 = y.toArray();
      y.upload(new float[rows]);
      ms[7] = time(shape, "lanes grid16j", bytes, () -> GemvLanesKernels.twinGrid16j(device, Grid.of(32, rows), a, x, y, rows, octets));
      compare(device, grid16, y.toArray(), 0, "GemvLanes.twinGrid16j against GemvLanes.twinGrid16");
      y.upload(new float[rows]);
      ms[8] = time(shape, "lanes grid16g", bytes, () -> GemvLanesKernels.twinGrid16g(device, Grid.of(32, rows), a, x, y, rows, octets));
      compare(device, grid16, y.toArray(), 0, "GemvLanes.twinGrid16g against GemvLanes.twinGrid16");
      if (device.backend().equals("vulkan")) {
        KernelSpec java16 = twin("gemvhjava16");
        ms[5] = time(shape, "java twin 16", bytes, () -> Dispatch.dispatch(device, java16, rows * 32, a, x, y, rows, cols));
        compare(device, grid16, y.toArray(), 0, "java twin 16 against GemvLanes.twinGrid16");
      }
    }
    return ms;
  }

  private static KernelSpec twin(String name) {
    return GlslTwins.twin(name, List.of(
        KernelSpec.Param.buffer("a", NumericType.SHORT, Access.READ),
        KernelSpec.Param.buffer("x", NumericType.FLOAT, Access.READ),
        KernelSpec.Param.buffer("y", NumericType.FLOAT, Access.WRITE),
        KernelSpec.Param.scalar("rows", NumericType.INT),
        KernelSpec.Param.scalar("cols", NumericType.INT)));
  }

  private static void compare(Device device, float[] expected, float[] actual, double tolerance, String what) {
    int differ = 0;
    for (int i = 0; i < expected.length; i++) {
      boolean ok = tolerance == 0
          ? Float.floatToRawIntBits(expected[i]) == Float.floatToRawIntBits(actual[i])
          : Math.abs(expected[i] - actual[i]) <= tolerance * (1 + Math.abs(expected[i]));
      differ += ok ? 0 : 1;
    }
    if (differ > 0 && device.subgroupSize() == 32) {
      System.out.printf("  %s: %d of %d rows DIFFER from Kiln's (row 0: %s against %s)%n", what, differ,
          expected.length, actual[0], expected[0]);
    }
  }

  private static double time(String shape, String variant, long bytes, Runnable launch) {
    launch.run();
    Measure.Figure figure = Measure.gpu(() -> {
      launch.run();
      return Device.lastDeviceNanos();
    });
    System.out.printf("%-12s %-14s %8.4f ms %6.0f GB/s (clock %d MHz)%n", shape, variant, figure.medianMs(),
        bytes / (figure.medianMs() * 1e6), figure.clockMhz());
    return figure.medianMs();
  }
}
