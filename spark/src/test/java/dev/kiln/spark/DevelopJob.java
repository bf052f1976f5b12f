package dev.kiln.spark;

import dev.kiln.Device;
import dev.kiln.samples.ByteHistogram;
import dev.kiln.samples.ByteHistogramKernels;
import dev.kiln.samples.PostProcessKernels;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.api.java.function.ReduceFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The sample job: a column of linear pixel values, developed to 8-bit values by the samples' fuse
 * group {@code develop} (exposure, tone curve, clamp, quantize: one dispatch per partition), and
 * the 8-bit values counted into 256 bins by {@code ByteHistogram} in each partition, the bins of
 * all partitions added by Spark. {@link #plainSpark} is the same job without Kiln: the same
 * arithmetic per row in a Spark {@code map}, counted by Spark's {@code groupBy}. Both give the same
 * bins.
 */
final class DevelopJob {
  static final float GAIN = 1.7f;
  static final float WHITE = 4f;

  private DevelopJob() {}

  /** The pixels: {@code n} values in [0, 5), in {@code partitions} partitions. */
  static Dataset<Float> pixels(SparkSession spark, long n, int partitions) {
    MapFunction<Long, Float> pixel = id -> (float) (id * 2_654_435_761L % 10_007) / 2000f;
    return spark.range(0, n, 1, partitions).map(pixel, Encoders.FLOAT());
  }

  /**
   * The bins, with Kiln: each partition reads its pixels from Spark's internal rows ({@link
   * Partitions}), develops and counts them on its executor's device.
   */
  static long[] withKiln(Dataset<Float> pixels) {
    FlatMapFunction<Iterator<InternalRow>, long[]> partition =
        rows -> partitionBins(Partitions.floats(rows, 0));
    Function2<long[], long[], long[]> add = DevelopJob::add;
    return Partitions.internalRows(pixels).mapPartitions(partition).reduce(add);
  }

  /**
   * {@link #withKiln} reading each partition from the column batches of Spark's in-memory columnar
   * cache, a batch at a time; {@code pixels} must be cached.
   */
  static long[] withKilnColumnar(Dataset<Float> pixels) {
    FlatMapFunction<Iterator<ColumnarBatch>, long[]> partition =
        batches -> partitionBins(Partitions.floatsOfBatches(batches, 0));
    Function2<long[], long[], long[]> add = DevelopJob::add;
    return Partitions.columnarBatches(pixels)
        .orElseThrow(
            () -> new IllegalStateException("the cached pixels' plan does not run columnar"))
        .mapPartitions(partition)
        .reduce(add);
  }

  /**
   * {@link #withKiln} reading each partition through the typed {@code Dataset<Float>} instead, each
   * value boxed: what {@link Partitions} saves ({@code DevelopJobBench} times both).
   */
  static long[] withKilnBoxed(Dataset<Float> pixels) {
    MapPartitionsFunction<Float, long[]> partition =
        rows -> {
          List<Float> values = new ArrayList<>();
          rows.forEachRemaining(values::add);
          float[] array = new float[values.size()];
          for (int i = 0; i < array.length; i++) {
            array[i] = values.get(i);
          }
          return partitionBins(array);
        };
    ReduceFunction<long[]> add = DevelopJob::add;
    return pixels.mapPartitions(partition, Encoders.javaSerialization(long[].class)).reduce(add);
  }

  private static long[] add(long[] a, long[] b) {
    long[] sum = a.clone();
    for (int bin = 0; bin < sum.length; bin++) {
      sum[bin] += b[bin];
    }
    return sum;
  }

  private static Iterator<long[]> partitionBins(float[] pixels) {
    int[] bytes = new int[pixels.length];
    int[] bins = new int[ByteHistogram.BINS];
    Device device = ExecutorDevices.forTask();
    PostProcessKernels.develop(device, pixels.length, pixels, GAIN, WHITE, bytes);
    ByteHistogramKernels.count(
        device, 8 * 256, bytes, bins); // a small persistent grid of 8 workgroups
    long[] counts = new long[bins.length];
    for (int bin = 0; bin < bins.length; bin++) {
      counts[bin] = bins[bin];
    }
    return List.of(counts).iterator();
  }

  /**
   * The bins, in plain Spark: {@code PostProcess}'s arithmetic per row, counted by {@code groupBy}.
   */
  static long[] plainSpark(Dataset<Float> pixels) {
    MapFunction<Float, Integer> develop =
        pixel -> {
          float x = pixel * GAIN;
          x = x * (1f + x / (WHITE * WHITE)) / (1f + x);
          x = Math.min(Math.max(x, 0f), 1f);
          return (int) (x * 255f + 0.5f);
        };
    long[] bins = new long[ByteHistogram.BINS];
    for (Row row : pixels.map(develop, Encoders.INT()).groupBy("value").count().collectAsList()) {
      bins[row.getInt(0)] = row.getLong(1);
    }
    return bins;
  }
}
