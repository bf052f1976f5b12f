package com.example;

import dev.kiln.Device;
import dev.kiln.library.Gemm;
import dev.kiln.library.Histograms;
import dev.kiln.library.Rows;
import dev.kiln.library.Scans;
import dev.kiln.library.Sorts;

/**
 * Scores items with a small dense layer and ranks them, calling only Kiln's library: {@code Gemm}
 * with a fused bias and ReLU, {@code Rows.softmax}, {@code Sorts} of keys with values, and a
 * histogram of the scores' buckets with its exclusive scan (where each bucket starts in the
 * ranking).
 */
public final class Ranking {
  private Ranking() {}

  /** What {@link #rank} found. */
  public record Result(
      float[] probabilities, int[] order, int[] bucketCounts, int[] bucketStarts) {}

  /**
   * Scores {@code items} rows of {@code features} values through {@code weights} (features x 1)
   * and {@code bias}, ReLU; the softmax of the scores; the items in ascending order of their
   * scores' buckets (the score times {@code buckets}, cut at the last); and each bucket's count
   * and start.
   */
  public static Result rank(
      Device device, float[] items, int count, int features, float[] weights, float bias,
      int buckets) {
    float[] scores = new float[count];
    Gemm.floats(device, count, 1, features, 1f, items, false, weights, false, 0f, scores,
        Gemm.Epilogue.forArrays().biasPerColumn(new float[] {bias}).relu());
    float[] probabilities = new float[count];
    Rows.softmax(device, scores, 1, count, probabilities);
    int[] keys = new int[count];
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      keys[i] = Math.min(buckets - 1, (int) (scores[i] * buckets));
      order[i] = i;
    }
    int[] bucketCounts = new int[buckets];
    Histograms.counts(device, keys, bucketCounts);
    Sorts.sort(device, keys, order);
    int[] bucketStarts = new int[buckets];
    Scans.exclusive(device, bucketCounts, bucketStarts);
    return new Result(probabilities, order, bucketCounts, bucketStarts);
  }
}
