package dev.kiln.library;

import dev.kiln.Batch;
import dev.kiln.DeviceSet;
import dev.kiln.FloatArray;
import dev.kiln.ShardedArray;
import dev.kiln.ShortArray;
import java.util.List;

/**
 * Matrix products {@code C = α·A·op(B) + β·C} split by rows across the devices of a {@link
 * DeviceSet}: {@code A} (m x k, row-major) and {@code C} (m x n) sharded by rows, the same rows on
 * each device, and {@code B} replicated; each device multiplies its rows with {@link Gemm}'s
 * kernels on the arrays it holds, the devices side by side, and nothing crosses between them. Row
 * {@code i} of {@code C} is what {@link Gemm} gives on one device for that row (the same kernels
 * and order: on the CPU backend and on devices without tensor cores, Java's {@code Math.fma} loop
 * over k).
 *
 * <pre>{@code
 * // rows in whole blocks of a row: A in blocks of k elements, C in blocks of n
 * try (ShardedArray<float[]> a = ShardedArray.upload(both, aValues, 0, k);
 *     ShardedArray<float[]> b = ShardedArray.replicate(both, bValues);
 *     ShardedArray<float[]> c = ShardedArray.zeros(both, float[].class, m * n, 0, n)) {
 *   ShardedGemm.floats(both, m, n, k, 1f, a, b, false, 0f, c);
 * }
 * }</pre>
 */
public final class ShardedGemm {
  private ShardedGemm() {}

  /**
   * {@code c = α·a·op(b) + β·c} on float matrices, each device its rows.
   *
   * @param devices the devices the arrays live on
   * @param m the rows of {@code a} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code a}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, sharded in whole rows
   * @param b k x n, or n x k where {@code transB}; replicated
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n, sharded in whole rows, the same rows as {@code a}
   */
  public static void floats(
      DeviceSet devices,
      int m,
      int n,
      int k,
      float alpha,
      ShardedArray<float[]> a,
      ShardedArray<float[]> b,
      boolean transB,
      float beta,
      ShardedArray<float[]> c) {
    byRows(
        devices,
        m,
        n,
        k,
        a,
        b,
        c,
        (batch, d, first, rows) ->
            Gemm.floats(
                batch,
                rows,
                n,
                k,
                alpha,
                (FloatArray) a.part(d),
                first * k,
                k,
                false,
                (FloatArray) b.part(d),
                0,
                transB ? k : n,
                transB,
                beta,
                (FloatArray) c.part(d),
                first * n,
                n,
                Gemm.Epilogue.forDevice()));
  }

  /**
   * {@code c = α·a·op(b) + β·c} on float16 or bfloat16 factors ({@link Gemm#shorts}), each device
   * its rows.
   *
   * @param devices the devices the arrays live on
   * @param m the rows of {@code a} and {@code c}
   * @param n the columns of {@code op(b)} and {@code c}
   * @param k the columns of {@code a}, the rows of {@code op(b)}
   * @param alpha α
   * @param a m x k, sharded in whole rows
   * @param b k x n, or n x k where {@code transB}; replicated
   * @param transB whether {@code op(b)} is {@code b}'s transpose
   * @param beta β
   * @param c m x n, sharded in whole rows, the same rows as {@code a}
   * @param bfloat whether the factors are bfloat16 (else float16)
   */
  public static void shorts(
      DeviceSet devices,
      int m,
      int n,
      int k,
      float alpha,
      ShardedArray<short[]> a,
      ShardedArray<short[]> b,
      boolean transB,
      float beta,
      ShardedArray<float[]> c,
      boolean bfloat) {
    byRows(
        devices,
        m,
        n,
        k,
        a,
        b,
        c,
        (batch, d, first, rows) ->
            Gemm.shorts(
                batch,
                rows,
                n,
                k,
                alpha,
                (ShortArray) a.part(d),
                first * k,
                k,
                false,
                (ShortArray) b.part(d),
                0,
                transB ? k : n,
                transB,
                beta,
                (FloatArray) c.part(d),
                first * n,
                n,
                Gemm.Epilogue.forDevice(),
                bfloat));
  }

  /** One device's product: rows {@code first .. first+rows-1}, recorded into its batch. */
  @FunctionalInterface
  private interface Rows {
    void multiply(Batch batch, int device, int first, int rows);
  }

  /**
   * Checks the layout, then runs each device's rows (those of its shard of {@code c}) side by side;
   * marks {@code c} written.
   */
  private static void byRows(
      DeviceSet devices,
      int m,
      int n,
      int k,
      ShardedArray<?> a,
      ShardedArray<?> b,
      ShardedArray<float[]> c,
      Rows multiply) {
    for (ShardedArray<?> array : List.of(a, b, c)) {
      if (!array.devices().devices().equals(devices.devices())) {
        throw new IllegalArgumentException(
            "an array lives on "
                + array.devices().devices()
                + ", and this product runs on "
                + devices.devices()
                + ". Fix: make the arrays on the set the product runs on");
      }
    }
    if (m < 0 || n < 0 || k < 0) {
      throw new IllegalArgumentException(
          "m, n and k must not be negative: " + m + ", " + n + ", " + k);
    }
    if (!b.isReplicated() || a.isReplicated() || c.isReplicated()) {
      throw new IllegalArgumentException(
          "a row-split product takes a and c sharded by rows and b replicated. Fix: make b with"
              + " ShardedArray.replicate, a and c with ShardedArray.upload or zeros in blocks of a row");
    }
    if (a.length() < (long) m * k || c.length() < (long) m * n) {
      throw new IllegalArgumentException(
          "a holds "
              + a.length()
              + " elements and c "
              + c.length()
              + "; a "
              + m
              + " x "
              + k
              + " by "
              + k
              + " x "
              + n
              + " product needs "
              + (long) m * k
              + " and "
              + (long) m * n);
    }
    if (m == 0 || n == 0) {
      return;
    }
    int count = devices.devices().size();
    int[] rows = new int[count + 1];
    for (int d = 1; d < count; d++) {
      int first = c.first(d);
      if (first % n != 0 || k > 0 && a.first(d) != (long) first / n * k) {
        throw new IllegalArgumentException(
            "device "
                + d
                + "'s shard of c starts at element "
                + first
                + " and of a at "
                + a.first(d)
                + ": not the first element of one row of each. Fix: shard a in blocks of k ("
                + k
                + ") elements and c in blocks of n ("
                + n
                + "), as many rows each");
      }
      rows[d] = Math.min(m, first / n);
    }
    rows[count] = m;
    try {
      devices.forEachDevice(
          d -> {
            if (rows[d + 1] > rows[d]) {
              try (Batch batch = devices.devices().get(d).batch()) {
                multiply.multiply(batch, d, rows[d], rows[d + 1] - rows[d]);
              }
            }
          });
    } finally {
      c.markWritten();
    }
  }
}
