package dev.kiln.spark;

import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A partition's numeric column as the Java array a launcher takes, read from Spark's internal rows
 * ({@code dataset.queryExecution().toRdd()}): each value is read from the row's bytes, where a
 * {@code Dataset<Float>}'s or a {@code Row}'s iterator boxes every value first.
 */
public final class Partitions {
  private Partitions() {}

  /**
   * The values of column {@code ordinal} of {@code rows}, a float column without nulls.
   *
   * @param rows a partition's internal rows, as {@code dataset.queryExecution().toRdd()} gives them
   * @param ordinal the column's position
   * @return the values, in the partition's order
   */
  public static float[] floats(Iterator<InternalRow> rows, int ordinal) {
    float[] values = new float[1024];
    int size = 0;
    while (rows.hasNext()) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = rows.next().getFloat(ordinal);
    }
    return Arrays.copyOf(values, size);
  }

  /**
   * The rows of {@code dataset} as Spark's internal rows, partition by partition.
   *
   * @param dataset the dataset
   * @return its rows, unconverted
   */
  public static JavaRDD<InternalRow> internalRows(Dataset<?> dataset) {
    return dataset.queryExecution().toRdd().toJavaRDD();
  }
}
