package dev.kiln.bench;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.IntArray;
import dev.kiln.ShortArray;
import dev.kiln.internal.Dispatch;
import dev.kiln.library.Gemm;
import dev.kiln.library.Gemv;
import dev.kiln.library.Histograms;
import dev.kiln.library.Rows;
import dev.kiln.library.Scans;
import dev.kiln.library.Sorts;
import dev.kiln.matrix.MatrixElement;
import java.util.Arrays;
import java.util.function.Consumer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/**
 * The library's kernels as a program calls them on device arrays: {@code Gemv} at the shapes LLM
 * decoding spends its time in (float, float16 and bfloat16 matrices) and {@code Rows}' softmax,
 * RMSNorm and LayerNorm, each in GB/s of the bytes it must move (the matrix, the vector and the
 * result once); {@code Scans} (ints and floats, 8 bytes an element) and {@code Histograms} (256
 * bins, 4 bytes a value, against the GLSL twin of the sample's fast histogram on the same grid,
 * alone and, as the library's call does, after its bins are zeroed in the same batch),
 * each call one batch timed whole; {@code Sorts} of 2^26 random int keys (wall time of the call on
 * device arrays: its passes are one batch inside it); {@code Gemm} of floats, float16 and bfloat16 factors at
 * square and ragged shapes and the 1B model's prefill shapes (512 positions), with b as k rows of
 * n and as n rows of k (a model's weights), and at 8192 with a bias and GELU too (work in flops,
 * 2mnk; each call one batch timed whole).
 * {@code bench/torch_library.py} measures
 * PyTorch on the same shapes.
 *
 * <p>{@code java -cp ... dev.kiln.bench.LibraryBench <out dir> [parts]}: {@code parts} a comma list
 * of {@code gemv,rows,scan,sort,gemm,sgemm} (all but {@code sgemm} by default; {@code sgemm}: the
 * float32 products alone), so that a long run can be split across
 * device calls; writes {@code library.csv} (with parts, {@code library-<parts>.csv}) after each
 * part.
 */
public final class LibraryBench {
  /** The three shapes, then the 1B model's per-layer shapes (q, gate and up, down). */
  private static final int[][] GEMV_SHAPES = {
    {4096, 4096}, {14336, 4096}, {128256, 2048}, {2048, 2048}, {16384, 2048}, {2048, 8192}
  };
  private static final int[][] ROW_SHAPES = {{4096, 4096}, {64, 128256}, {1, 128256}};
  private static final int[] SCAN_LOGS = {24, 28};

  /** m, n, k: square, the ragged shapes, then the 1B model's prefill of 512 positions. */
  private static final int[][] GEMM_SHAPES = {
    {4096, 4096, 4096}, {8192, 8192, 8192}, {4000, 3000, 2000}, {1000, 1000, 1000},
    {8192, 128, 8192}, {512, 2048, 2048}, {512, 8192, 2048}, {512, 2048, 8192}
  };

  /**
   * {@code gemm}'s and {@code sgemm}'s shapes where {@code -Dkiln.bench.gemmShapes=4096x4096x4096,...}
   * names some (all by default); {@code -Dkiln.bench.sgemmPlain=true} times the library's plain
   * layout only (for variants that compile one layout).
   */
  private static final Set<String> GEMM_SHAPES_NAMED =
      Set.of(System.getProperty("kiln.bench.gemmShapes", "").split(",")).stream()
          .filter(shape -> !shape.isEmpty())
          .collect(java.util.stream.Collectors.toSet());

  private LibraryBench() {}

  /** Whether {@code -Dkiln.bench.gemmShapes} names {@code shape}, or names none. */
  private static boolean named(int[] shape) {
    return GEMM_SHAPES_NAMED.isEmpty() || GEMM_SHAPES_NAMED.contains(shape[0] + "x" + shape[1] + "x" + shape[2]);
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "bench-results");
    Set<String> parts =
        args.length > 1 ? Set.of(args[1].split(",")) : Set.of("gemv", "rows", "scan", "sort", "gemm");
    Files.createDirectories(out);
    Path csv = out.resolve(args.length > 1 ? "library-" + args[1].replace(',', '-') + ".csv" : "library.csv");
    Results results = new Results();
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s (%s)%n", device.name(), device.backend());
      if (parts.contains("gemv")) {
        for (int[] shape : GEMV_SHAPES) {
          gemv(device, shape[0], shape[1], results);
        }
        results.write(csv); // after each part: a call cut short keeps what it measured
      }
      if (parts.contains("rows")) {
        for (int[] shape : ROW_SHAPES) {
          rows(device, shape[0], shape[1], results);
        }
        results.write(csv);
      }
      if (parts.contains("scan")) {
        for (int log : SCAN_LOGS) {
          scansAndHistograms(device, 1 << log, results);
        }
        results.write(csv);
      }
      if (parts.contains("sort")) {
        sort(device, 1 << 26, results);
        results.write(csv);
      }
      if (parts.contains("gemm")) {
        for (int[] shape : GEMM_SHAPES) {
          if (!named(shape)) {
            continue;
          }
          gemm(device, shape[0], shape[1], shape[2], results);
          results.write(csv);
        }
      }
      if (parts.contains("sgemm")) {
        for (int[] shape : GEMM_SHAPES) {
          if (!named(shape)) {
            continue;
          }
          sgemm(device, shape[0], shape[1], shape[2], results);
          results.write(csv);
        }
      }
    }
  }

  private static void gemv(Device device, int rows, int cols, Results results) {
    int n = rows * cols;
    float[] matrix = random(n, 1);
    short[] halves = new short[n];
    short[] bfloats = new short[n];
    IntStream.range(0, n)
        .parallel()
        .forEach(
            i -> {
              halves[i] = Float.floatToFloat16(matrix[i]);
              bfloats[i] = (short) (Float.floatToRawIntBits(matrix[i]) >>> 16);
            });
    String shape = rows + "x" + cols;
    long vectors = 4L * cols + 4L * rows;
    try (FloatArray x = device.upload(random(cols, 2));
        FloatArray y = device.floats(rows)) {
      try (FloatArray a = device.upload(matrix)) {
        time(results, "gemv " + shape, "Kiln f32", n, 4L * n + vectors,
            () -> Gemv.floats(device, a, rows, cols, x, y, false));
      }
      try (ShortArray a = device.upload(halves)) {
        time(results, "gemv " + shape, "Kiln f16", n, 2L * n + vectors,
            () -> Gemv.halves(device, a, rows, cols, x, y, false));
      }
      try (ShortArray a = device.upload(bfloats)) {
        time(results, "gemv " + shape, "Kiln bf16", n, 2L * n + vectors,
            () -> Gemv.bfloats(device, a, rows, cols, x, y, false));
        if (rows == 14336) { // a transformer's gate and up projections: two matrices, one input
          try (ShortArray b = device.upload(bfloats);
              FloatArray z = device.floats(rows)) {
            long bytes = 4L * n + 4L * cols + 8L * rows;
            timeBatch(results, device, "gemv pair " + shape, "Kiln bf16 pair", n, bytes,
                batch -> Gemv.pair(batch, a, rows, b, rows, cols, x, y, z, true));
            timeBatch(results, device, "gemv pair " + shape, "Kiln bf16 two", n, bytes,
                batch -> {
                  Gemv.bfloats(batch, a, rows, cols, x, y, false);
                  Gemv.bfloats(batch, b, rows, cols, x, z, false);
                });
          }
        }
      }
    }
  }

  private static void rows(Device device, int rows, int cols, Results results) {
    int n = rows * cols;
    String shape = rows + "x" + cols;
    long bytes = 8L * n; // read once, written once
    try (FloatArray in = device.upload(random(n, 3));
        FloatArray weight = device.upload(random(cols, 4));
        FloatArray bias = device.upload(random(cols, 5));
        FloatArray out = device.floats(n);
        Rows.Scratch scratch = Rows.scratch(device, rows, cols)) {
      // in a batch with a scratch: long rows that are few split into parts (two launches)
      timeBatch(results, device, "softmax " + shape, "Kiln", n, bytes,
          batch -> Rows.softmax(batch, in, rows, cols, out, scratch));
      timeBatch(results, device, "rmsnorm " + shape, "Kiln", n, bytes,
          batch -> Rows.rmsNorm(batch, in, weight, rows, cols, 1e-5f, out, scratch));
      timeBatch(results, device, "layernorm " + shape, "Kiln", n, bytes,
          batch -> Rows.layerNorm(batch, in, weight, bias, rows, cols, 1e-5f, out, scratch));
    }
  }

  private static void scansAndHistograms(Device device, int n, Results results) {
    int[] ints = new SplittableRandom(6).ints(n, -1000, 1000).toArray();
    int[] expected = ints.clone();
    Arrays.parallelPrefix(expected, Integer::sum);
    float[] floats = random(n, 7);
    int[] bytes = new SplittableRandom(8).ints(n, 0, 256).toArray();
    int[] counts = new int[256];
    for (int v : bytes) {
      counts[v]++;
    }
    try (IntArray in = device.upload(ints);
        IntArray out = device.ints(n);
        Scans.Scratch<IntArray> scratch = Scans.scratch(in)) {
      timeBatch(results, device, "scan ints 2^" + log(n), "Kiln", n, 8L * n,
          batch -> Scans.inclusive(batch, in, out, scratch));
      check(Arrays.equals(expected, out.toArray()), "the int scan");
      out.upload(new int[n]);
      time(results, "scan ints 2^" + log(n), "GLSL twin", n, 8L * n, () -> twinScan(device, in, out, n));
      check(Arrays.equals(expected, out.toArray()), "the GLSL twin's int scan");
    }
    try (FloatArray in = device.upload(floats);
        FloatArray out = device.floats(n);
        Scans.Scratch<FloatArray> scratch = Scans.scratch(in)) {
      timeBatch(results, device, "scan floats 2^" + log(n), "Kiln", n, 8L * n,
          batch -> Scans.inclusive(batch, in, out, scratch));
    }
    try (IntArray in = device.upload(bytes);
        IntArray bins = device.ints(256)) {
      timeBatch(results, device, "histogram 256 2^" + log(n), "Kiln", n, 4L * n,
          batch -> Histograms.counts(batch, in, bins));
      check(Arrays.equals(counts, bins.toArray()), "the histogram");
      int grid = 1056 * 256; // the library's persistent grid
      time(results, "histogram 256 2^" + log(n), "GLSL twin", n, 4L * n,
          () -> Dispatch.dispatch(device, GlslTwins.HISTOGRAM_FAST, grid, in, bins.upload(new int[256])));
      // the same work as the library's call: the bins zeroed in the batch, then counted
      time(results, "histogram 256 2^" + log(n), "GLSL twin +zero", n, 4L * n, () -> {
        try (Batch batch = device.batch()) {
          ElementwiseKernels.zero(batch, 256, bins);
          Dispatch.record(batch, GlslTwins.HISTOGRAM_FAST, grid, in, bins);
          batch.submit();
          return batch.deviceNanos();
        }
      });
      check(Arrays.equals(counts, bins.toArray()), "the GLSL twin's histogram");
    }
  }

  private static void sort(Device device, int n, Results results) {
    int[] keys = new SplittableRandom(9).ints(n).toArray();
    int[] expected = keys.clone();
    Arrays.parallelSort(expected);
    try (IntArray fresh = device.upload(keys);
        IntArray onDevice = device.ints(n);
        Sorts.Scratch scratch = Sorts.scratch(onDevice)) {
      // the batch form with a scratch made once, as a program sorting often calls it, on fresh
      // keys each time, copied on the device just before (an upload from the host lets the GPU's
      // clock fall, to 345 MHz on the H200); GPU time of the sort alone
      time(results, "sort ints 2^" + log(n), "Kiln", n, 8L * n, () -> {
        ElementwiseKernels.copyInts(device, n, fresh, onDevice);
        try (Batch batch = device.batch()) {
          Sorts.sort(batch, onDevice, scratch);
          batch.submit();
          return batch.deviceNanos();
        }
      });
      check(Arrays.equals(expected, onDevice.toArray()), "the sort");
    }
  }

  private static void gemm(Device device, int m, int n, int k, Results results) {
    String workload = "gemm " + m + "x" + n + "x" + k;
    long flops = 2L * m * n * k;
    float[] valuesA = random(m * k, 10);
    float[] valuesB = random(k * n, 11);
    try (FloatArray a = device.upload(valuesA);
        FloatArray b = device.upload(valuesB);
        FloatArray c = device.floats(m * n);
        FloatArray bias = device.upload(random(n, 13))) {
      timeBatch(results, device, workload, "Kiln f32", m, flops,
          batch -> Gemm.floats(batch, m, n, k, 1f, a, false, b, false, 0f, c,
              Gemm.Epilogue.forDevice()));
      if (m == n && n == k && n % 128 == 0) { // the bench's kernel the library's descends from
        time(results, workload, "bench f32 prefetched", m, flops,
            () -> RegisterTilesKernels.prefetched(device, Grid.of(n / 8, n / 8), a, b, c, n));
      }
      if (m == 8192 && n == 8192) {
        timeBatch(results, device, workload, "Kiln f32 +bias+GELU", m, flops,
            batch -> Gemm.floats(batch, m, n, k, 1f, a, false, b, false, 0f, c,
                Gemm.Epilogue.forDevice().biasPerColumn(bias).gelu()));
      }
      for (boolean bfloat : new boolean[] {false, true}) {
        String format = bfloat ? "bf16" : "f16";
        try (ShortArray a16 = device.upload(sixteenBits(valuesA, bfloat));
            ShortArray b16 = device.upload(sixteenBits(valuesB, bfloat))) {
          timeBatch(results, device, workload, "Kiln " + format, m, flops,
              batch -> Gemm.shorts(batch, m, n, k, 1f, a16, false, b16, false, 0f, c,
                  Gemm.Epilogue.forDevice(), bfloat));
          // b as n rows of k, the layout of a model's weights (the prefill's products)
          timeBatch(results, device, workload, "Kiln " + format + " bT", m, flops,
              batch -> Gemm.shorts(batch, m, n, k, 1f, a16, false, b16, true, 0f, c,
                  Gemm.Epilogue.forDevice(), bfloat));
          if (m == n && n == k && n % 256 == 0 && !bfloat && device.multipliesTiles(MatrixElement.FLOAT16)) {
            time(results, workload, "bench f16 prefetchedWide", m, flops,
                () -> TensorCoresKernels.prefetchedWide(
                    device, Grid.of(16 * (n / 256), 16 * (n / 128)), a16, b16, c, n));
          }
          if (m == 8192 && n == 8192) {
            timeBatch(results, device, workload, "Kiln " + format + " +bias+GELU", m, flops,
                batch -> Gemm.shorts(batch, m, n, k, 1f, a16, false, b16, false, 0f, c,
                    Gemm.Epilogue.forDevice().biasPerColumn(bias).gelu(), bfloat));
          }
        }
      }
    }
  }

  /**
   * The float32 products alone: the library's, and at square shapes of whole blocks the bench's
   * kernel it descends from, with its device checks and without.
   */
  private static void sgemm(Device device, int m, int n, int k, Results results) {
    String workload = "gemm " + m + "x" + n + "x" + k;
    long flops = 2L * m * n * k;
    try (FloatArray a = device.upload(random(m * k, 10));
        FloatArray b = device.upload(random(k * n, 11));
        FloatArray c = device.floats(m * n)) {
      timeBatch(results, device, workload, "Kiln f32", m, flops,
          batch -> Gemm.floats(batch, m, n, k, 1f, a, false, b, false, 0f, c,
              Gemm.Epilogue.forDevice()));
      if (Boolean.getBoolean("kiln.bench.sgemmPlain")) {
        return;
      }
      timeBatch(results, device, workload, "Kiln f32 bT", m, flops,
          batch -> Gemm.floats(batch, m, n, k, 1f, a, false, b, true, 0f, c,
              Gemm.Epilogue.forDevice()));
      if (m == n && n == k && n % 128 == 0) {
        time(results, workload, "bench f32 prefetched", m, flops,
            () -> RegisterTilesKernels.prefetched(device, Grid.of(n / 8, n / 8), a, b, c, n));
        time(results, workload, "bench f32 prefetched unchecked", m, flops,
            () -> RegisterTilesKernels.prefetchedUnchecked(device, Grid.of(n / 8, n / 8), a, b, c, n));
      }
    }
  }

  private static short[] sixteenBits(float[] values, boolean bfloat) {
    short[] bits = new short[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] = bfloat
          ? (short) (Float.floatToRawIntBits(values[i]) >>> 16)
          : Float.floatToFloat16(values[i]);
    }
    return bits;
  }

  /**
   * The library's int scan by its GLSL twins (inclusive), level by level as {@code Scans} records
   * it: the tiles' totals, their scan one level up, then the tiles; the sum of the launches' GPU
   * times.
   */
  static long twinScan(Device device, IntArray in, IntArray out, int n) {
    int tiles = Math.ceilDiv(n, 2048);
    if (tiles == 1) {
      Dispatch.dispatch(device, GlslTwins.SCAN_TILES, 256, in, out, in, n, 0);
      return Device.lastDeviceNanos();
    }
    try (IntArray totals = device.ints(tiles);
        IntArray offsets = device.ints(tiles)) {
      Dispatch.dispatch(device, GlslTwins.SCAN_TOTALS, tiles * 256, in, totals, n);
      long nanos = Device.lastDeviceNanos();
      nanos += twinScan(device, totals, offsets, tiles); // inclusive: tile w starts from w - 1's
      Dispatch.dispatch(device, GlslTwins.SCAN_TILES, tiles * 256, in, out, offsets, n, 1);
      return nanos + Device.lastDeviceNanos();
    }
  }

  private static int log(int n) {
    return Integer.numberOfTrailingZeros(n);
  }

  private static void check(boolean right, String what) {
    if (!right) {
      throw new AssertionError(what + " differs from Java's");
    }
  }

  /** Times {@code record}'s launches as one batch each run ({@link Batch#deviceNanos()}). */
  private static void timeBatch(Results results, Device device, String workload, String variant,
      int n, long bytes, Consumer<Batch> record) {
    time(results, workload, variant, n, bytes, () -> {
      try (Batch batch = device.batch()) {
        record.accept(batch);
        batch.submit();
        return batch.deviceNanos();
      }
    });
  }

  private static void time(
      Results results, String workload, String variant, int n, long bytes, Runnable launch) {
    time(results, workload, variant, n, bytes, () -> {
      launch.run();
      return Device.lastDeviceNanos();
    });
  }

  private static void time(
      Results results, String workload, String variant, int n, long bytes, LongSupplier run) {
    var unused = run.getAsLong(); // the warm-up
    Measure.Figure figure = Measure.gpu(run);
    results.add(workload, variant, n, bytes, figure);
    System.out.printf(
        "%-22s %-10s %9.4f ms %7.0f %s%n",
        workload, variant, figure.medianMs(), bytes / (figure.medianMs() * 1e6),
        workload.startsWith("gemm") ? "GFLOP/s" : "GB/s");
  }

  private static float[] random(int n, long seed) {
    float[] values = new float[n];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < n; i++) {
      values[i] = (float) (random.nextDouble() * 2 - 1);
    }
    return values;
  }
}
