package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import dev.kiln.internal.Dispatch;
import dev.kiln.samples.BlockedMatrixMultiply;
import dev.kiln.samples.BlockedMatrixMultiplyKernels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The register-blocked matrix products: the sample {@link BlockedMatrixMultiply} against its GLSL twins (the same
 * algorithm, and the same with 16-byte accesses) and the suite's 16 x 16 tiled kernel, on the best
 * device, by {@link Measure}'s protocol; every variant's output is checked first. PyTorch's figures
 * for the same sides come from {@code bench/torch_gemm.py}.
 *
 * <p>{@code java -cp ... dev.kiln.bench.GemmBench <out dir> [sides...]} (default 4096 8192): writes
 * {@code gemm.csv}.
 */
public final class GemmBench {
  /** The variants, all or those {@code -Dkiln.bench.gemm} lists (comma-separated). */
  private static final List<String> VARIANTS = List.of(System.getProperty("kiln.bench.gemm",
      "Kiln blocked,GLSL blocked,GLSL blocked vec4,Kiln 16x16").split(","));

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
        if (variant.endsWith("vec4") && n % BlockedMatrixMultiply.BLOCK != 0) {
          continue;
        }
        Runnable launch = switch (variant) {
          case "Kiln blocked" -> () -> BlockedMatrixMultiplyKernels.multiply(device, blocks, x, y, c, n, n, n);
          case "GLSL blocked" -> () -> Dispatch.dispatch(device, GlslTwins.SGEMM_BLOCKED, blocks, x, y, c, n);
          case "GLSL blocked vec4" -> () -> Dispatch.dispatch(device, GlslTwins.SGEMM_BLOCKED_VEC4, blocks, x, y, c, n);
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
