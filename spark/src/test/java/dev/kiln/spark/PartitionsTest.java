package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;

/** A partition's float column read from column batches, without Spark running. */
class PartitionsTest {
  private static ColumnarBatch batch(float... values) {
    OnHeapColumnVector column = new OnHeapColumnVector(values.length, DataTypes.FloatType);
    column.putFloats(0, values.length, values, 0);
    ColumnarBatch batch = new ColumnarBatch(new ColumnVector[] {column});
    batch.setNumRows(values.length);
    return batch;
  }

  @Test
  void batchesAreReadInOrder() {
    assertArrayEquals(
        new float[] {1, 2, 3, 4, 5},
        Partitions.floatsOfBatches(List.of(batch(1, 2), batch(), batch(3, 4, 5)).iterator(), 0));
    assertArrayEquals(
        new float[0], Partitions.floatsOfBatches(List.<ColumnarBatch>of().iterator(), 0));
  }

  @Test
  void aColumnWithNullsIsRefused() {
    OnHeapColumnVector column = new OnHeapColumnVector(2, DataTypes.FloatType);
    column.putFloat(0, 1f);
    column.putNull(1);
    ColumnarBatch batch = new ColumnarBatch(new ColumnVector[] {column});
    batch.setNumRows(2);
    IllegalArgumentException thrown =
        assertThrows(
            IllegalArgumentException.class,
            () -> Partitions.floatsOfBatches(List.of(batch).iterator(), 0));
    assertEquals("column 0 holds nulls, which a float[] cannot", thrown.getMessage());
  }
}
