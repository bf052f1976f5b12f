package dev.kiln.spark;

import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;

/**
 * The sample job timed in one Spark application, from a warm executor: plain Spark, Kiln reading
 * Spark's internal rows, Kiln reading the column batches of Spark's in-memory cache, and Kiln
 * reading boxed {@code Float}s; the pixels cached, each job run 3 times first, then in turn, the
 * median of the runs. Not a test: {@code java -cp <spark's test class path>
 * dev.kiln.spark.DevelopJobBench [master] [pixels] [partitions] [runs]} (local[*], 2^24, 16, 11),
 * with the JVM flags of {@code spark/pom.xml}'s surefire configuration.
 */
public final class DevelopJobBench {
  private DevelopJobBench() {}

  public static void main(String[] args) {
    String master = args.length > 0 ? args[0] : "local[*]";
    long n = args.length > 1 ? Long.parseLong(args[1]) : 1L << 24;
    int partitions = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 11;
    SparkSession spark =
        SparkSession.builder()
            .master(master)
            .appName("kiln-develop-bench")
            .config("spark.ui.enabled", "false")
            .config("spark.plugins", KilnPlugin.class.getName())
            .getOrCreate();
    try {
      Dataset<Float> pixels = DevelopJob.pixels(spark, n, partitions).cache();
      pixels.count();
      long[] expected = DevelopJob.plainSpark(pixels);
      if (!Arrays.equals(expected, DevelopJob.withKiln(pixels))
          || !Arrays.equals(expected, DevelopJob.withKilnBoxed(pixels))
          || !Arrays.equals(expected, DevelopJob.withKilnColumnar(pixels))) {
        throw new AssertionError("Kiln's bins differ from plain Spark's");
      }
      for (int warm = 0; warm < 3; warm++) {
        DevelopJob.plainSpark(pixels);
        DevelopJob.withKiln(pixels);
        DevelopJob.withKilnBoxed(pixels);
        DevelopJob.withKilnColumnar(pixels);
      }
      long[] plain = new long[runs];
      long[] kiln = new long[runs];
      long[] boxed = new long[runs];
      long[] columnar = new long[runs];
      for (int run = 0; run < runs; run++) {
        long start = System.nanoTime();
        DevelopJob.plainSpark(pixels);
        plain[run] = System.nanoTime() - start;
        start = System.nanoTime();
        DevelopJob.withKiln(pixels);
        kiln[run] = System.nanoTime() - start;
        start = System.nanoTime();
        DevelopJob.withKilnBoxed(pixels);
        boxed[run] = System.nanoTime() - start;
        start = System.nanoTime();
        DevelopJob.withKilnColumnar(pixels);
        columnar[run] = System.nanoTime() - start;
      }
      System.out.printf(
          "develop+histogram, %d pixels in %d partitions, %s on %d cores, Kiln on %s:%n",
          n,
          partitions,
          master,
          Runtime.getRuntime().availableProcessors(),
          ExecutorDevices.forAddress("").name());
      System.out.printf(
          "  plain Spark %.1f ms; Kiln from internal rows %.1f ms (%.2fx), from the cache's column batches"
              + " %.1f ms (%.2fx), from boxed Floats %.1f ms (%.2fx); medians of %d%n",
          median(plain) / 1e6,
          median(kiln) / 1e6,
          (double) median(kiln) / median(plain),
          median(columnar) / 1e6,
          (double) median(columnar) / median(plain),
          median(boxed) / 1e6,
          (double) median(boxed) / median(plain),
          runs);
    } finally {
      spark.stop();
    }
  }

  private static long median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
