package dev.kiln.spark;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A partition's numeric column as the Java array a launcher takes, read from Spark's internal rows
 * ({@code dataset.queryExecution().toRdd()}): each value is read from the row's bytes, where a
 * {@code Dataset<Float>}'s or a {@code Row}'s iterator boxes every value first. Where the dataset's
 * plan runs columnar (a cached dataset of primitive columns: Spark's in-memory columnar cache), its
 * column batches give the values in bulk instead ({@link #columnarBatches}).
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
   * The values of column {@code ordinal} of {@code batches}, a float column without nulls, copied a
   * batch at a time.
   *
   * @param batches a partition's column batches, as {@link #columnarBatches} gives them
   * @param ordinal the column's position
   * @return the values, in the partition's order
   * @throws IllegalArgumentException where the column holds nulls
   */
  public static float[] floatsOfBatches(Iterator<ColumnarBatch> batches, int ordinal) {
    float[] values = new float[0];
    int size = 0;
    while (batches.hasNext()) {
      ColumnarBatch batch = batches.next(); // the reader may reuse it: copied before the next
      ColumnVector column = batch.column(ordinal);
      int rows = batch.numRows();
      if (column.hasNull()) {
        throw new IllegalArgumentException(
            "column " + ordinal + " holds nulls, which a float[] cannot");
      }
      if (size + rows > values.length) {
        values = Arrays.copyOf(values, Math.max(size + rows, 2 * values.length));
      }
      System.arraycopy(column.getFloats(0, rows), 0, values, size, rows);
      size += rows;
    }
    return values.length == size ? values : Arrays.copyOf(values, size);
  }

  /**
   * The column batches of {@code dataset}, partition by partition, where its plan runs columnar
   * (Spark's in-memory columnar cache does, for a cached dataset of primitive columns); empty where
   * it does not. Spark plans a dataset once: cache it before its first action ({@code cache()} on a
   * dataset that ran already leaves its plan reading its source).
   *
   * @param dataset the dataset
   * @return its batches, or empty
   */
  public static Optional<JavaRDD<ColumnarBatch>> columnarBatches(Dataset<?> dataset) {
    SparkPlan plan = dataset.queryExecution().executedPlan();
    return plan.supportsColumnar()
        ? Optional.of(plan.executeColumnar().toJavaRDD())
        : Optional.empty();
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
