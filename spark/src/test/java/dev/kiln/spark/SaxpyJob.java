package dev.kiln.spark;

import dev.kiln.Device;
import dev.kiln.samples.SaxpyKernels;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;

/**
 * The tests' job: over {@code spark.range(n)} in partitions, each task computes {@code y = 2x + y}
 * with Kiln on its executor's device and the same in plain Java, and reports where it ran and how
 * many elements differ.
 */
final class SaxpyJob {
  private SaxpyJob() {}

  /** What one task reports. */
  record Report(long pid, String address, String device, int elements, int differing) {
    static Report parse(String line) {
      String[] words = line.split("\t");
      return new Report(
          Long.parseLong(words[0]),
          words[1],
          words[2],
          Integer.parseInt(words[3]),
          Integer.parseInt(words[4]));
    }
  }

  static List<Report> run(SparkSession spark, long n, int partitions) {
    MapPartitionsFunction<Long, String> task = SaxpyJob::task;
    return spark
        .range(0, n, 1, partitions)
        .mapPartitions(task, Encoders.STRING())
        .collectAsList()
        .stream()
        .map(Report::parse)
        .toList();
  }

  private static Iterator<String> task(Iterator<Long> values) {
    List<Long> ids = new ArrayList<>();
    values.forEachRemaining(ids::add);
    float[] x = new float[ids.size()];
    float[] y = new float[ids.size()];
    float[] expected = new float[ids.size()];
    for (int i = 0; i < x.length; i++) {
      long id = ids.get(i);
      x[i] = (id % 1000) * 0.37f - 11f;
      y[i] = (id % 777) / 3f;
      expected[i] = 2f * x[i] + y[i];
    }
    Device device = ExecutorDevices.forTask();
    SaxpyKernels.saxpy(device, x.length, 2f, x, y);
    int differing = 0;
    for (int i = 0; i < y.length; i++) {
      differing += Float.floatToRawIntBits(y[i]) == Float.floatToRawIntBits(expected[i]) ? 0 : 1;
    }
    return List.of(
            ProcessHandle.current().pid()
                + "\t"
                + ExecutorDevices.taskAddress()
                + "\t"
                + device.backend()
                + "\t"
                + x.length
                + "\t"
                + differing)
        .iterator();
  }
}
