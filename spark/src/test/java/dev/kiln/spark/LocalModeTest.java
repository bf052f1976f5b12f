package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.LongStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Spark's local mode with no GPU settings: every task runs on the best device and gets Java's
 * results, and the sample job's bins equal plain Spark's.
 */
class LocalModeTest {
  @Test
  void tasksWithoutAddressesRunOnTheBestDevice() {
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("kiln-local")
            .config("spark.ui.enabled", "false")
            .config("spark.plugins", KilnPlugin.class.getName())
            .getOrCreate();
    try {
      List<SaxpyJob.Report> reports = SaxpyJob.run(spark, 100_003, 4);
      assertEquals(4, reports.size());
      String best =
          ExecutorDevices.forAddress("").backend(); // the driver is the executor in local mode
      for (SaxpyJob.Report report : reports) {
        assertEquals("", report.address(), report.toString());
        assertEquals(best, report.device(), report.toString());
        assertEquals(0, report.differing(), report.toString());
      }
      assertEquals(100_003, reports.stream().mapToInt(SaxpyJob.Report::elements).sum());
      Dataset<Float> pixels = DevelopJob.pixels(spark, 300_007, 5);
      long[] bins = DevelopJob.withKiln(pixels);
      assertArrayEquals(DevelopJob.plainSpark(pixels), bins);
      assertEquals(300_007, LongStream.of(bins).sum());
      Dataset<Float> cached =
          DevelopJob.pixels(spark, 300_007, 5).cache(); // in column batches of 10,000 rows
      assertArrayEquals(
          bins, DevelopJob.withKilnColumnar(cached), "read from the cache's column batches");
      assertTrue(
          Partitions.columnarBatches(DevelopJob.pixels(spark, 10, 1)).isEmpty(),
          "an uncached plan runs by rows");
    } finally {
      spark.stop();
      ExecutorDevices.closeAll();
    }
  }
}
