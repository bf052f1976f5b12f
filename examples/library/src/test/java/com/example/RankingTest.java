package com.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The library's calls from a project of its own, on the best device, against plain Java. */
class RankingTest {
  @Test
  void ranksAsJavaWould() {
    int count = 10_007;
    int features = 13;
    int buckets = 37;
    Random random = new Random(7);
    float[] items = new float[count * features];
    for (int i = 0; i < items.length; i++) {
      items[i] = random.nextFloat();
    }
    float[] weights = new float[features];
    for (int j = 0; j < features; j++) {
      weights[j] = random.nextFloat() / features;
    }
    float bias = -0.1f;
    try (Device device = Device.open()) {
      Ranking.Result result = Ranking.rank(device, items, count, features, weights, bias, buckets);
      int[] keys = new int[count];
      float[] scores = new float[count];
      for (int i = 0; i < count; i++) {
        float sum = 0f;
        for (int j = 0; j < features; j++) {
          sum = Math.fma(items[i * features + j], weights[j], sum);
        }
        scores[i] = Math.max(sum + bias, 0f);
        keys[i] = Math.min(buckets - 1, (int) (scores[i] * buckets));
      }
      Integer[] order = new Integer[count];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.comparingInt(i -> keys[i])); // stable
      assertArrayEquals(
          Arrays.stream(order).mapToInt(Integer::intValue).toArray(), result.order());
      int[] counts = new int[buckets];
      for (int key : keys) {
        counts[key]++;
      }
      assertArrayEquals(counts, result.bucketCounts());
      int start = 0;
      for (int b = 0; b < buckets; b++) {
        assertEquals(start, result.bucketStarts()[b], "bucket " + b);
        start += counts[b];
      }
      double max = 0;
      for (float score : scores) {
        max = Math.max(max, score);
      }
      double total = 0;
      for (float score : scores) {
        total += Math.exp(score - max);
      }
      for (int i = 0; i < count; i++) {
        double expected = Math.exp(scores[i] - max) / total;
        assertTrue(Math.abs(result.probabilities()[i] - expected) <= 1e-6 * expected + 1e-12,
            "item " + i);
      }
    }
  }
}
