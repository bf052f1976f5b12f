package dev.kiln.bench;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
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
 * <p>{@code java -cp ... dev.kiln.bench.GpuSuite <out dir> [log2 sizes...]} (default 20 22 24 26 28)
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
      for (int log : logs) {
        elementwise(device, 1 << log, results);
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
    try (Inputs in = Inputs.upload(device, x, y)) {
      results.add("copy", "Kiln", n, copyBytes, in.timed(x, Output.SECOND,
          (from, to) -> ElementwiseKernels.copy(device, n, from, to)));
      results.add("copy", "GLSL vec4", n, copyBytes, in.timed(x, Output.SECOND,
          (from, to) -> device.dispatch(GlslTwins.COPY4, n / 4, from, to)));
      results.add("saxpy", "Kiln", n, saxpyBytes, in.timed(saxpy, Output.SECOND,
          (from, to) -> ElementwiseKernels.saxpy(device, n, A, from, to)));
      results.add("saxpy", "GLSL vec4", n, saxpyBytes, in.timed(saxpy, Output.SECOND,
          (from, to) -> device.dispatch(GlslTwins.SAXPY4, n / 4, from, to, A)));
      results.add("chain", "Kiln fused", n, copyBytes, in.timed(chain, Output.FIRST,
          (data, unused) -> ElementwiseKernels.chain(device, n, data, A, B, LO, HI)));
      results.add("chain", "Kiln separate", n, copyBytes, separateChain(device, n, in, chain));
      results.add("chain", "GLSL vec4", n, copyBytes, in.timed(chain, Output.FIRST,
          (data, unused) -> device.dispatch(GlslTwins.CHAIN4, n / 4, data, A, B, LO, HI)));
    }
  }

  /** A launch on one set's first and second buffer. */
  private interface Launch {
    void run(FloatArray first, FloatArray second);
  }

  /** Where a launch leaves its output: copy and saxpy in the second buffer, the chain in place in the first. */
  private enum Output { FIRST, SECOND }

  /** The inputs of one size on the host, and {@link #SETS} device copies that the timed runs rotate over. */
  private record Inputs(Device device, float[] x, float[] y, List<FloatArray> xs, List<FloatArray> ys, int[] next)
      implements AutoCloseable {
    static Inputs upload(Device device, float[] x, float[] y) {
      Inputs inputs = new Inputs(device, x, y, new ArrayList<>(), new ArrayList<>(), new int[1]);
      for (int s = 0; s < SETS; s++) {
        inputs.xs.add(device.upload(x));
        inputs.ys.add(device.upload(y));
      }
      return inputs;
    }

    /** The set the next run uses. */
    int nextSet() {
      return next[0]++ % SETS;
    }

    /**
     * Runs {@code launch} once on fresh copies of the inputs and compares its {@code output} with
     * {@code expected}, bit for bit, then times it on the rotating sets.
     */
    Measure.Figure timed(float[] expected, Output output, Launch launch) {
      try (FloatArray first = device.upload(x); FloatArray second = device.upload(y)) {
        launch.run(first, second);
        check(expected, (output == Output.FIRST ? first : second).toArray());
      }
      return Measure.gpu(() -> {
        int s = nextSet();
        launch.run(xs.get(s), ys.get(s));
        return Device.lastDeviceNanos();
      });
    }

    @Override
    public void close() {
      xs.forEach(FloatArray::close);
      ys.forEach(FloatArray::close);
    }
  }

  /** The chain's four arms as four dispatches in one batch, timed by the batch's timestamps. */
  private static Measure.Figure separateChain(Device device, int n, Inputs in, float[] expected) {
    try (FloatArray data = device.upload(in.x())) {
      arms(device, n, data).close();
      check(expected, data.toArray());
    }
    return Measure.gpu(() -> {
      try (Batch batch = arms(device, n, in.xs().get(in.nextSet()))) {
        batch.submit();
        return batch.deviceNanos();
      }
    });
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
  private static float[] pattern(int n, int seed) {
    float[] values = new float[n];
    IntStream.range(0, n).parallel().forEach(i -> values[i] = ((i * 2654435761L + seed * 97L) & 0xffff) / 16384f - 2f);
    return values;
  }
}
