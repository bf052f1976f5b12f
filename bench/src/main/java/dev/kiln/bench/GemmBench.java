package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.ShortArray;
import dev.kiln.abi.KernelSpec;
import dev.kiln.internal.Dispatch;
import dev.kiln.matrix.Matrices;
import dev.kiln.samples.BlockedMatrixMultiply;
import dev.kiln.samples.BlockedMatrixMultiplyKernels;
import dev.kiln.samples.HalfMatrixMultiply;
import dev.kiln.samples.HalfMatrixMultiplyKernels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The register-blocked matrix products: the sample {@link BlockedMatrixMultiply} against its GLSL twins (the same
 * algorithm, and the same with 16-byte accesses) and the suite's 16 x 16 tiled kernel, and the
 * tensor-core product {@link HalfMatrixMultiply} ("Kiln f16 coopmat"), on the best device, by
 * {@link Measure}'s protocol; every variant's output is checked first. PyTorch's figures
 * for the same sides come from {@code bench/torch_gemm.py}.
 *
 * <p>{@code java -cp ... dev.kiln.bench.GemmBench <out dir> [sides...]} (default 4096 8192): writes
 * {@code gemm.csv}.
 */
public final class GemmBench {
  /** The variants, all or those {@code -Dkiln.bench.gemm} lists (comma-separated). */
  private static final List<String> VARIANTS = List.of(System.getProperty("kiln.bench.gemm",
      "Kiln blocked,GLSL blocked,GLSL blocked vec4,Kiln 16x16,Kiln f16 coopmat,Kiln f16 coopmat 64x64,"
      + "Kiln f16 coopmat 64x64 unchecked,Kiln f16 coopmat staged,Kiln f16 coopmat staged unchecked,"
      + "GLSL f16 coopmat staged").split(","));

  private GemmBench() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "bench-results");
    int[] sides = args.length > 1 ? Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray()
        : new int[] {4096, 8192};
    Files.createDirectories(out);
    Results results = new Results();
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      System.out.printf("%s (%s)%n", device.name(), device.backend());
      for (int n : sides) {
        sgemm(device, n, results);
        hgemm(device, n, results);
      }
    }
    results.write(out.resolve("gemm.csv"));
  }

  private static void sgemm(Device device, int n, Results results) {
    float[] a = GpuSuite.pattern(n * n, 4);
    float[] b = GpuSuite.pattern(n * n, 5);
    int tiles = (n + BlockedMatrixMultiply.TILE - 1) / BlockedMatrixMultiply.TILE;
    Grid blocks = Grid.of(tiles, tiles);
    Grid entries = Grid.of(n, n);
    long flops = 2L * n * n * n;
    try (FloatArray x = device.upload(a); FloatArray y = device.upload(b); FloatArray c = device.floats(n * n)) {
      for (String variant : VARIANTS) {
        if (variant.contains("coopmat")
            || (variant.endsWith("vec4") || variant.contains("prefetched")) && n % BlockedMatrixMultiply.BLOCK != 0) {
          continue;
        }
        Runnable launch = switch (variant) {
          case "Kiln blocked" -> () -> BlockedMatrixMultiplyKernels.multiply(device, blocks, x, y, c, n, n, n);
          case "GLSL blocked" -> () -> Dispatch.dispatch(device, GlslTwins.SGEMM_BLOCKED, blocks, x, y, c, n);
          case "GLSL blocked vec4" -> () -> Dispatch.dispatch(device, GlslTwins.SGEMM_BLOCKED_VEC4, blocks, x, y, c, n);
          case "GLSL blocked prefetched" -> () -> Dispatch.dispatch(device, GlslTwins.SGEMM_PREFETCHED, blocks, x, y, c, n);
          case "Kiln blocked prefetched" -> () -> RegisterTilesKernels.prefetched(device, blocks, x, y, c, n);
          case "Kiln blocked prefetched unchecked" ->
              () -> RegisterTilesKernels.prefetchedUnchecked(device, blocks, x, y, c, n);
          default -> () -> WorkgroupsKernels.sgemm(device, entries, x, y, c, n);
        };
        launch.run();
        check(variant, a, b, c.toArray(), n, !variant.equals("Kiln 16x16"));
        results.add("sgemm", variant, n, flops, Measure.gpu(() -> {
          launch.run();
          return Device.lastDeviceNanos();
        }));
      }
    }
  }

  /**
   * The tensor-core product {@link HalfMatrixMultiply} of float16 factors into floats, checked on
   * 256 entries within docs/KERNELS.md's bound of the fp64 product.
   */
  private static void hgemm(Device device, int n, Results results) {
    short[] a = halves(GpuSuite.pattern(n * n, 4));
    short[] b = halves(GpuSuite.pattern(n * n, 5));
    try (ShortArray x = device.upload(a); ShortArray y = device.upload(b); FloatArray c = device.floats(n * n)) {
      for (String variant : VARIANTS) {
        if (!variant.contains("coopmat")) {
          continue;
        }
        if ((variant.contains("staged") || variant.contains("prefetched")) && n % 128 != 0
            || variant.contains("wide") && n % TensorCores.WIDE != 0) {
          continue;
        }
        boolean wide = variant.contains("64x64");
        int blocks = wide ? (n / TensorCores.SIDE) * (n / TensorCores.SIDE)
            : n / HalfMatrixMultiply.BLOCK_ROWS * (n / HalfMatrixMultiply.BLOCK_COLUMNS);
        int invocations = Math.ceilDiv(blocks * device.subgroupSize(), HalfMatrixMultiply.WORKGROUP)
            * HalfMatrixMultiply.WORKGROUP;
        Runnable launch = switch (variant) {
          case "Kiln f16 coopmat 64x64" -> () -> TensorCoresKernels.wide(device, invocations, x, y, c, n, n, n);
          case "Kiln f16 coopmat 64x64 unchecked" ->
              () -> TensorCoresKernels.wideUnchecked(device, invocations, x, y, c, n, n, n);
          case "Kiln f16 coopmat staged" -> () -> TensorCoresKernels.staged(device, stagedGrid(n), x, y, c, n);
          case "Kiln f16 coopmat staged unchecked" ->
              () -> TensorCoresKernels.stagedUnchecked(device, stagedGrid(n), x, y, c, n);
          case "Kiln f16 coopmat prefetched" -> () -> TensorCoresKernels.prefetched(device, stagedGrid(n), x, y, c, n);
          case "Kiln f16 coopmat prefetched unchecked" ->
              () -> TensorCoresKernels.prefetchedUnchecked(device, stagedGrid(n), x, y, c, n);
          case "Kiln f16 coopmat prefetched wide" ->
              () -> TensorCoresKernels.prefetchedWide(device, wideGrid(n), x, y, c, n);
          case "Kiln f16 coopmat prefetched wide unchecked" ->
              () -> TensorCoresKernels.prefetchedWideUnchecked(device, wideGrid(n), x, y, c, n);
          case "GLSL f16 coopmat staged" ->
              () -> Dispatch.dispatch(device, GlslTwins.HGEMM_STAGED, Grid.of(n / 8, n / 8), x, y, c, n);
          case String name when name.startsWith("GLSL f16 coopmat hgemm") ->
              halfTwin(device, GlslTwins.halfTwin(name.substring("GLSL f16 coopmat ".length())), x, y, c, n);
          default -> () -> HalfMatrixMultiplyKernels.multiply(device, invocations, x, y, c, n, n, n);
        };
        c.upload(new float[n * n]); // no variant passes on the one before it's output
        launch.run();
        if (!variant.contains("peak")) { // the multiply-adds alone compute no product
          checkHalves(variant, a, b, c.toArray(), n);
        }
        results.add("f16 gemm", variant.replace("f16 ", ""), n, 2L * n * n * n, Measure.gpu(() -> {
          launch.run();
          return Device.lastDeviceNanos();
        }));
      }
    }
  }

  /** A GLSL variant ({@link GlslTwins.HalfTwin}) on a grid of its blocks. */
  private static Runnable halfTwin(Device device, GlslTwins.HalfTwin twin, ShortArray x, ShortArray y, FloatArray c,
      int n) {
    KernelSpec spec = twin.spec();
    Grid grid = Grid.of(16 * (n / twin.columns()), 16 * (n / twin.rows()));
    return () -> Dispatch.dispatch(device, spec, grid, x, y, c, n);
  }

  /** The staged kernels' grid: a workgroup of 16 x 16 per 128 x 128 block. */
  private static Grid stagedGrid(int n) {
    return Grid.of(16 * (n / TensorCores.STAGED), 16 * (n / TensorCores.STAGED));
  }

  /** The wide prefetching kernels' grid: a workgroup of 16 x 16 per 128 x 256 block. */
  private static Grid wideGrid(int n) {
    return Grid.of(16 * (n / TensorCores.WIDE), 16 * (n / TensorCores.STAGED));
  }

  /** 256 entries within docs/KERNELS.md's bound of the fp64 product. */
  private static void checkHalves(String variant, short[] a, short[] b, float[] product, int n) {
    Random random = new Random(n);
    for (int probe = 0; probe < 256; probe++) {
      int row = random.nextInt(n);
      int column = random.nextInt(n);
      double exact = 0;
      double magnitude = 0;
      for (int k = 0; k < n; k++) {
        double term = (double) Float.float16ToFloat(a[row * n + k]) * Float.float16ToFloat(b[k * n + column]);
        exact += term;
        magnitude += Math.abs(term);
      }
      double error = Math.abs(product[row * n + column] - exact);
      if (!(error <= Matrices.errorBound(n, magnitude))) {
        throw new AssertionError(variant + " c[" + row + "][" + column + "] = " + product[row * n + column]
            + ", exact " + exact + ": error " + error + " beyond the bound " + Matrices.errorBound(n, magnitude));
      }
    }
  }

  private static short[] halves(float[] values) {
    short[] bits = new short[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] = Float.floatToFloat16(values[i]);
    }
    return bits;
  }

  /** 256 entries against Java's k-order sums: of {@code Math.fma} where {@code fused}, else of products. */
  static void check(String variant, float[] a, float[] b, float[] product, int n, boolean fused) {
    Random random = new Random(n);
    for (int probe = 0; probe < 256; probe++) {
      int row = random.nextInt(n);
      int column = random.nextInt(n);
      float sum = 0f;
      for (int k = 0; k < n; k++) {
        sum = fused ? Math.fma(a[row * n + k], b[k * n + column], sum) : sum + a[row * n + k] * b[k * n + column];
      }
      if (Float.floatToIntBits(sum) != Float.floatToIntBits(product[row * n + column])) {
        throw new AssertionError(variant + " sgemm c[" + row + "][" + column + "] = " + product[row * n + column]
            + ", Java gives " + sum);
      }
    }
  }
}
