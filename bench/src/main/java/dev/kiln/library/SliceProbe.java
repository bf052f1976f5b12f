package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.Recording;
import dev.kiln.bench.Measure;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Where a split float product's time goes (session 44's call 1 found Gemm's split slower than the
 * unsplit kernel at 1000³ and 8192 x 128 x 8192, faster at 512 x 2048 x k): each launch alone in a
 * batch of its own (GPU timestamps), the library's call in a fresh batch (its scratch made each
 * time) and replayed from a recording (its scratch made once). Measurement only, in the library's
 * package for its kernels. Usage: SliceProbe [m x n x k ...]
 */
public final class SliceProbe {
  private SliceProbe() {}

  public static void main(String[] args) {
    String[] shapes =
        args.length > 0
            ? args
            : new String[] {"1000x1000x1000", "8192x128x8192", "512x2048x8192", "512x2048x2048"};
    try (Device device = Device.open()) {
      for (String shape : shapes) {
        int[] s = Arrays.stream(shape.split("x")).mapToInt(Integer::parseInt).toArray();
        probe(device, s[0], s[1], s[2]);
      }
    }
  }

  private static void probe(Device device, int m, int n, int k) {
    int slices = Tuning.gemmSlices(m, n, k);
    int depth = Gemm.sliceDepth(k, Math.max(1, slices), GemmKernels.DEPTH);
    int used = Math.ceilDiv(k, depth);
    int ldp = Math.ceilDiv(n, 4) * 4;
    int side = GemmKernels.SIDE;
    Grid blocks =
        Grid.of(
            Math.ceilDiv(n, GemmKernels.BLOCK) * side, Math.ceilDiv(m, GemmKernels.BLOCK) * side);
    try (FloatArray a = device.upload(values(m * k));
        FloatArray b = device.upload(values(k * n));
        FloatArray c = device.floats(m * n);
        FloatArray parts = device.floats(used * m * ldp);
        FloatArray none = device.floats(1)) {
      String name = m + "x" + n + "x" + k + " (" + used + " slices of " + depth + ")";
      report(name, "unsplit kernel", device, batch ->
          GemmKernelsKernels.floatsInQuadsScaled(batch, blocks, a, b, c, none, none, m, n, k, 0,
              k, 0, n, 0, n, 0, 0, 1f, 0f, 0, 0, 0));
      report(name, "slice kernel alone", device, batch ->
          GemmKernelsKernels.floatSlicesInQuads(batch, Grid.of(blocks.x(), blocks.y(), used), a,
              b, parts, m, n, k, 0, k, 0, n, 0, 0, depth, ldp));
      report(name, "sumSlices alone", device, batch ->
          GemmKernelsKernels.sumSlices(batch, m * n, parts, c, none, none, m, n, used, ldp, 0, n,
              1f, 0f, 0, 0, 0));
      report(name, "slices + sum, one batch", device, batch -> {
        GemmKernelsKernels.floatSlicesInQuads(batch, Grid.of(blocks.x(), blocks.y(), used), a,
            b, parts, m, n, k, 0, k, 0, n, 0, 0, depth, ldp);
        GemmKernelsKernels.sumSlices(batch, m * n, parts, c, none, none, m, n, used, ldp, 0, n,
            1f, 0f, 0, 0, 0);
      });
      report(name, "Gemm.floats, fresh batch", device, batch ->
          Gemm.floats(batch, m, n, k, 1f, a, false, b, false, 0f, c, Gemm.Epilogue.forDevice()));
      try (Recording recording = device.record(batch ->
          Gemm.floats(batch, m, n, k, 1f, a, false, b, false, 0f, c, Gemm.Epilogue.forDevice()))) {
        long[] nanos = Measure.runs(1_500_000_000L, 30, () -> {
          recording.replay();
          return recording.deviceNanos();
        });
        print(name, "Gemm.floats, recording replayed", nanos);
      }
    }
  }

  private static void report(String name, String what, Device device, Consumer<Batch> record) {
    long[] nanos = Measure.runs(1_500_000_000L, 30, () -> {
      try (Batch batch = device.batch()) {
        record.accept(batch);
        batch.submit();
        return batch.deviceNanos();
      }
    });
    print(name, what, nanos);
  }

  private static void print(String name, String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf("%-40s %-34s %9.4f ms%n", name, what, sorted[sorted.length / 2] / 1e6);
  }

  private static float[] values(int count) {
    float[] values = new float[count];
    java.util.SplittableRandom random = new java.util.SplittableRandom(count);
    for (int i = 0; i < count; i++) {
      values[i] = (float) (random.nextDouble() * 2 - 1);
    }
    return values;
  }
}
