package dev.kiln.llama.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.Device;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link LlamaKernels#attendCombine} alone, on spans' results made up here: its one pass over the
 * spans (a running maximum, four spans a turn, the last turn partial) against the combination in
 * double precision, on the CPU backend and on Vulkan. The model's tests reach a single turn only:
 * their caches are short.
 */
class AttentionCombineTest extends LlamaDevices {
  /**
   * Three heads over {@code spans} spans at {@code position}: with 64-wide heads four groups of
   * invocations take every fourth span, with 128-wide heads two; 38 spans used give each group
   * three turns (the last with two spans or one), 1 span one group a partial turn, and a position
   * past the cache every span.
   */
  @ParameterizedTest
  @CsvSource({"64, 40, 600", "128, 40, 600", "64, 40, 3", "128, 12, 5000", "64, 33, 527"})
  void theSpansCombineAsInDoublePrecision(int headDim, int spans, int position) {
    int heads = 3;
    Random random = new Random(headDim * 31L + spans + position);
    float[] stats = new float[2 * heads * spans];
    float[] partials = new float[heads * spans * headDim];
    for (int at = 0; at < heads * spans; at++) {
      stats[2 * at] = (random.nextFloat() - 0.5f) * 20f; // the span's largest score
      float sum = 1f + random.nextFloat() * (LlamaKernels.SPAN - 1); // its exponentials' sum
      stats[2 * at + 1] = sum;
      for (int d = 0; d < headDim; d++) {
        partials[at * headDim + d] = (random.nextFloat() * 2f - 1f) * sum;
      }
    }
    int used = Math.min(position / LlamaKernels.SPAN + 1, spans);
    for (Device device : devices()) {
      float[] out = new float[heads * headDim];
      LlamaKernelsKernels.attendCombine(
          device,
          heads * LlamaKernels.WORKGROUP,
          partials,
          stats,
          new int[] {position},
          out,
          headDim,
          spans);
      for (int head = 0; head < heads; head++) {
        double max = Double.NEGATIVE_INFINITY;
        for (int s = 0; s < used; s++) {
          max = Math.max(max, stats[2 * (head * spans + s)]);
        }
        for (int d = 0; d < headDim; d++) {
          double total = 0;
          double weighted = 0;
          double magnitude = 0;
          for (int s = 0; s < used; s++) {
            int at = head * spans + s;
            double weight = Math.exp(stats[2 * at] - max);
            total += weight * stats[2 * at + 1];
            weighted += weight * partials[at * headDim + d];
            magnitude += weight * Math.abs(partials[at * headDim + d]);
          }
          // a few roundings of each term, the device's exponentials (within 4 units of a float's
          // last place) and the division: 1e-5 of the terms' magnitude over the sum
          assertEquals(
              weighted / total,
              out[head * headDim + d],
              1e-5 * magnitude / total,
              "head " + head + ", element " + d + " on " + device);
        }
      }
    }
    abortWithoutVulkan("ran the kernel");
  }
}
