package dev.kiln.bench;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceArray;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.IntArray;
import dev.kiln.internal.Dispatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The GPU benchmark suite: Kiln's kernels against their GLSL twins through the same runtime, on
 * the best device, every figure measured by {@link Measure}'s protocol. Inputs rotate over
 * {@link #SETS} sets of buffers; every workload's output is checked against plain Java before it is
 * timed. Writes {@code results.csv}, from which {@link Plots} draws the charts (on a JDK with
 * {@code java.desktop}, which the GPU machine's runtime lacks).
 *
 * <p>{@code java -cp ... dev.kiln.bench.GpuSuite <out dir> [log2 sizes...]} (default 20 22 24 26 28);
 * {@code -Dkiln.bench.sgemm=2048,4096} sets the matrix sides; {@code -Dkiln.bench.workgroupsOnly=true}
 * leaves the elementwise workloads out.
 */
public final class GpuSuite {
  static final int SETS = 3;
  private static final float A = 1.0001f;
  private static final float B = 0.5f;
  private static final float LO = -4f;
  private static final float HI = 4f;

  private GpuSuite() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "bench-results");
    int[] logs = args.length > 1 ? Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray()
        : new int[] {20, 22, 24, 26, 28};
    Files.createDirectories(out);
    Results results = new Results();
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s (%s); GPU time, median of %d runs after %d ms of warm-up each; SM clock after the runs%n",
          device.name(), device.backend(), Measure.RUNS, Measure.WARM_UP_NANOS / 1_000_000);
      boolean elementwise = !Boolean.getBoolean("kiln.bench.workgroupsOnly");
      for (int log : elementwise ? logs : new int[0]) {
        elementwise(device, 1 << log, results);
      }
      for (int log : logs) {
        sum(device, 1 << log, results);
        scan(device, 1 << log, results);
        histogram(device, 1 << log, results);
        stencil(device, 1 << (log / 2), results);
      }
      for (String n : System.getProperty("kiln.bench.sgemm", "2048,4096").split(",")) {
        sgemm(device, Integer.parseInt(n.strip()), results);
      }
    }
    results.write(out.resolve("results.csv"));
  }

  /** copy, saxpy and the chain at {@code n} elements: Kiln, its GLSL twin, and the chain's arms dispatched apart. */
  private static void elementwise(Device device, int n, Results results) {
    float[] x = pattern(n, 1);
    float[] y = pattern(n, 2);
    float[] saxpy = new float[n];
    float[] chain = new float[n];
    for (int i = 0; i < n; i++) {
      saxpy[i] = A * x[i] + y[i];
      chain[i] = Math.min(Math.max(x[i] * A + B, LO), HI);
    }
    long copyBytes = 8L * n;
    long saxpyBytes = 12L * n;
    try (Rotation<FloatArray> xs = new Rotation<>(() -> device.upload(x));
        Rotation<FloatArray> ys = new Rotation<>(() -> device.upload(y))) {
      ElementwiseInputs in = new ElementwiseInputs(device, x, y, xs, ys);
      results.add("copy", "Kiln", n, copyBytes, in.timed(x, Output.SECOND,
          (from, to) -> ElementwiseKernels.copy(device, n, from, to)));
      results.add("copy", "GLSL vec4", n, copyBytes, in.timed(x, Output.SECOND,
          (from, to) -> Dispatch.dispatch(device, GlslTwins.COPY4, n / 4, from, to)));
      results.add("saxpy", "Kiln", n, saxpyBytes, in.timed(saxpy, Output.SECOND,
          (from, to) -> ElementwiseKernels.saxpy(device, n, A, from, to)));
      results.add("saxpy", "GLSL vec4", n, saxpyBytes, in.timed(saxpy, Output.SECOND,
          (from, to) -> Dispatch.dispatch(device, GlslTwins.SAXPY4, n / 4, from, to, A)));
      results.add("chain", "Kiln fused", n, copyBytes, in.timed(chain, Output.FIRST,
          (data, unused) -> ElementwiseKernels.chain(device, n, data, A, B, LO, HI)));
      results.add("chain", "Kiln separate", n, copyBytes, separateChain(device, n, x, xs, chain));
      results.add("chain", "GLSL vec4", n, copyBytes, in.timed(chain, Output.FIRST,
          (data, unused) -> Dispatch.dispatch(device, GlslTwins.CHAIN4, n / 4, data, A, B, LO, HI)));
    }
  }

  /** Where a launch leaves its output: copy and saxpy in the second buffer, the chain in place in the first. */
  private enum Output { FIRST, SECOND }

  /** One size's elementwise inputs, on the host and rotating on the device. */
  private record ElementwiseInputs(Device device, float[] x, float[] y, Rotation<FloatArray> xs,
      Rotation<FloatArray> ys) {
    /**
     * Runs {@code launch} once on fresh copies of the inputs and compares its {@code output} with
     * {@code expected}, bit for bit, then times it on the rotating sets.
     */
    Measure.Figure timed(float[] expected, Output output, Launch<FloatArray, FloatArray> launch) {
      try (FloatArray first = device.upload(x); FloatArray second = device.upload(y)) {
        launch.run(first, second);
        check(expected, (output == Output.FIRST ? first : second).toArray());
      }
      return Measure.gpu(() -> {
        launch.run(xs.next(), ys.next());
        return Device.lastDeviceNanos();
      });
    }
  }

  /** The chain's four arms as four dispatches in one batch, timed by the batch's timestamps. */
  private static Measure.Figure separateChain(Device device, int n, float[] x, Rotation<FloatArray> xs,
      float[] expected) {
    try (FloatArray data = device.upload(x)) {
      arms(device, n, data).close();
      check(expected, data.toArray());
    }
    return Measure.gpu(() -> {
      try (Batch batch = arms(device, n, xs.next())) {
        batch.submit();
        return batch.deviceNanos();
      }
    });
  }

  /** The int sum of {@code n} values (4 bytes read each), Kiln and GLSL, checked against Java's wrapping sum. */
  private static void sum(Device device, int n, Results results) {
    int[] values = IntStream.range(0, n).map(i -> i * 0x9E3779B9).toArray();
    int expected = IntStream.of(values).sum();
    try (Rotation<IntArray> in = new Rotation<>(() -> device.upload(values)); IntArray total = device.ints(1)) {
      results.add("sum", "Kiln", n, 4L * n, checkedThenTimed(in, total, expected,
          (v, t) -> WorkgroupsKernels.sum(device, n, v, t)));
      results.add("sum", "Kiln unchecked", n, 4L * n, checkedThenTimed(in, total, expected,
          (v, t) -> WorkgroupsKernels.sumUnchecked(device, n, v, t)));
      results.add("sum", "GLSL", n, 4L * n, checkedThenTimed(in, total, expected,
          (v, t) -> Dispatch.dispatch(device, GlslTwins.SUM, n, v, t)));
    }
  }

  private static Measure.Figure checkedThenTimed(Rotation<IntArray> in, IntArray total, int expected,
      Launch<IntArray, IntArray> launch) {
    total.upload(new int[1]);
    launch.run(in.get(0), total);
    if (total.toArray()[0] != expected) {
      throw new AssertionError("sum " + total.toArray()[0] + ", Java gives " + expected);
    }
    return Measure.gpu(() -> {
      launch.run(in.next(), total);
      return Device.lastDeviceNanos();
    });
  }

  /** The per-workgroup inclusive scan of {@code n} ints (4 bytes read and 4 written each), checked against Java. */
  private static void scan(Device device, int n, Results results) {
    int[] values = IntStream.range(0, n).map(i -> i * 0x9E3779B9 >> 8).toArray();
    int[] expected = new int[n];
    for (int i = 0; i < n; i++) {
      expected[i] = (i % 256 == 0 ? 0 : expected[i - 1]) + values[i];
    }
    try (Rotation<IntArray> in = new Rotation<>(() -> device.upload(values));
        Rotation<IntArray> out = new Rotation<>(() -> device.ints(n))) {
      for (String variant : List.of("Kiln", "GLSL")) {
        Launch<IntArray, IntArray> launch = variant.equals("Kiln")
            ? (v, s) -> WorkgroupsKernels.scan(device, n, v, s)
            : (v, s) -> Dispatch.dispatch(device, GlslTwins.SCAN, n, v, s);
        launch.run(in.get(0), out.get(0));
        if (!java.util.Arrays.equals(expected, out.get(0).toArray())) {
          throw new AssertionError(variant + " scan differs from Java's");
        }
        results.add("scan", variant, n, 8L * n, Measure.gpu(() -> {
          launch.run(in.next(), out.next());
          return Device.lastDeviceNanos();
        }));
      }
    }
  }

  /** 256-bin histogram of {@code n} values' low bytes (4 bytes read each), checked against Java's counts. */
  private static void histogram(Device device, int n, Results results) {
    int[] values = IntStream.range(0, n).map(i -> i * 0x9E3779B9 >>> 7).toArray();
    int[] expected = new int[256];
    for (int value : values) {
      expected[value & 255]++;
    }
    try (Rotation<IntArray> in = new Rotation<>(() -> device.upload(values)); IntArray bins = device.ints(256)) {
      for (String variant : List.of("Kiln", "GLSL")) {
        Launch<IntArray, IntArray> launch = variant.equals("Kiln")
            ? (v, b) -> WorkgroupsKernels.histogram(device, n, v, b)
            : (v, b) -> Dispatch.dispatch(device, GlslTwins.HISTOGRAM, n, v, b);
        bins.upload(new int[256]);
        launch.run(in.get(0), bins);
        if (!java.util.Arrays.equals(expected, bins.toArray())) {
          throw new AssertionError(variant + " histogram differs from Java's");
        }
        results.add("histogram", variant, n, 4L * n, Measure.gpu(() -> {
          launch.run(in.next(), bins);
          return Device.lastDeviceNanos();
        }));
      }
    }
  }

  /** The 5-point stencil on a side x side grid (4 bytes read and 4 written per point), checked against Java. */
  private static void stencil(Device device, int side, Results results) {
    int n = side * side;
    float[] grid = pattern(n, 3);
    float[] expected = new float[n];
    for (int y = 0; y < side; y++) {
      for (int x = 0; x < side; x++) {
        int i = y * side + x;
        expected[i] = x == 0 || y == 0 || x == side - 1 || y == side - 1 ? grid[i]
            : 0.5f * grid[i] + 0.125f * (grid[i - 1] + grid[i + 1] + grid[i - side] + grid[i + side]);
      }
    }
    Grid shape = Grid.of(side, side);
    try (Rotation<FloatArray> in = new Rotation<>(() -> device.upload(grid));
        Rotation<FloatArray> out = new Rotation<>(() -> device.floats(n))) {
      results.add("stencil", "Kiln", n, 8L * n, gridTimed(in, out, expected,
          (from, to) -> WorkgroupsKernels.stencil(device, shape, from, to, side, side)));
      results.add("stencil", "Kiln unchecked", n, 8L * n, gridTimed(in, out, expected,
          (from, to) -> WorkgroupsKernels.stencilUnchecked(device, shape, from, to, side, side)));
      results.add("stencil", "GLSL", n, 8L * n, gridTimed(in, out, expected,
          (from, to) -> Dispatch.dispatch(device, GlslTwins.STENCIL, shape, from, to, side, side)));
    }
  }

  private static Measure.Figure gridTimed(Rotation<FloatArray> in, Rotation<FloatArray> out, float[] expected,
      Launch<FloatArray, FloatArray> launch) {
    launch.run(in.get(0), out.get(0));
    check(expected, out.get(0).toArray());
    return Measure.gpu(() -> {
      launch.run(in.next(), out.next());
      return Device.lastDeviceNanos();
    });
  }

  /** The n x n matrix product (2 n^3 flops), 256 entries checked against Java's sums in k order. */
  private static void sgemm(Device device, int n, Results results) {
    float[] a = pattern(n * n, 4);
    float[] b = pattern(n * n, 5);
    Grid shape = Grid.of(n, n);
    long flops = 2L * n * n * n;
    try (Rotation<FloatArray> as = new Rotation<>(() -> device.upload(a));
        Rotation<FloatArray> bs = new Rotation<>(() -> device.upload(b)); FloatArray c = device.floats(n * n)) {
      for (String variant : List.of("Kiln", "Kiln unchecked", "GLSL")) {
        Launch<FloatArray, FloatArray> launch = switch (variant) {
          case "Kiln" -> (x, y) -> WorkgroupsKernels.sgemm(device, shape, x, y, c, n);
          case "Kiln unchecked" -> (x, y) -> WorkgroupsKernels.sgemmUnchecked(device, shape, x, y, c, n);
          default -> (x, y) -> Dispatch.dispatch(device, GlslTwins.SGEMM, shape, x, y, c, n);
        };
        launch.run(as.get(0), bs.get(0));
        float[] product = c.toArray();
        java.util.Random random = new java.util.Random(n);
        for (int k = 0; k < 256; k++) {
          int row = random.nextInt(n);
          int column = random.nextInt(n);
          float sum = 0f;
          for (int j = 0; j < n; j++) {
            sum += a[row * n + j] * b[j * n + column];
          }
          if (Float.floatToIntBits(sum) != Float.floatToIntBits(product[row * n + column])) {
            throw new AssertionError(variant + " sgemm c[" + row + "][" + column + "] = " + product[row * n + column]
                + ", Java gives " + sum);
          }
        }
        results.add("sgemm", variant, n, flops, Measure.gpu(() -> {
          launch.run(as.next(), bs.next());
          return Device.lastDeviceNanos();
        }));
      }
    }
  }

  /** A launch on two arrays (the others it uses are captured). */
  private interface Launch<A, B> {
    void run(A first, B second);
  }

  /** {@link #SETS} device arrays of one input, handed out in turn. */
  private static final class Rotation<T extends DeviceArray<?, ?>> implements AutoCloseable {
    private final List<T> arrays = new ArrayList<>();
    private int next;

    Rotation(java.util.function.Supplier<T> make) {
      for (int s = 0; s < SETS; s++) {
        arrays.add(make.get());
      }
    }

    T get(int set) {
      return arrays.get(set);
    }

    T next() {
      return arrays.get(next++ % SETS);
    }

    @Override
    public void close() {
      arrays.forEach(DeviceArray::close);
    }
  }

  private static Batch arms(Device device, int n, FloatArray data) {
    Batch batch = device.batch();
    ElementwiseKernels.scale(batch, n, data, A);
    ElementwiseKernels.shift(batch, n, data, B);
    ElementwiseKernels.floor(batch, n, data, LO);
    ElementwiseKernels.ceiling(batch, n, data, HI);
    return batch;
  }

  private static void check(float[] expected, float[] actual) {
    for (int i = 0; i < expected.length; i++) {
      if (Float.floatToIntBits(expected[i]) != Float.floatToIntBits(actual[i])) {
        throw new AssertionError("element " + i + ": " + actual[i] + ", Java gives " + expected[i]);
      }
    }
  }

  /** Inputs in [-2, 2), different per {@code seed}, made fast enough for 2^28 elements. */
  static float[] pattern(int n, int seed) {
    float[] values = new float[n];
    IntStream.range(0, n).parallel().forEach(i -> values[i] = ((i * 2654435761L + seed * 97L) & 0xffff) / 16384f - 2f);
    return values;
  }
}
