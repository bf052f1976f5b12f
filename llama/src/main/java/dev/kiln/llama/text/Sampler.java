package dev.kiln.llama.text;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;

/**
 * Chooses the next token from logits: greedy (the largest, the lowest id among equals) at
 * temperature 0, else as Hugging Face's sampling does: the logits divided by the temperature, their
 * softmax, the most probable tokens whose probabilities first reach {@code topP} together (at least
 * one), renormalized, and one drawn from those with a seeded generator.
 */
public final class Sampler {
  private final float temperature;
  private final float topP;
  private final SplittableRandom random;

  /**
   * A sampler.
   *
   * @param temperature 0 for greedy, else the logits' divisor
   * @param topP the probability mass kept, in (0, 1]
   * @param seed the generator's seed
   */
  public Sampler(float temperature, float topP, long seed) {
    if (!(temperature >= 0) || !(topP > 0 && topP <= 1)) {
      throw new IllegalArgumentException(
          "temperature "
              + temperature
              + ", top-p "
              + topP
              + ". Fix: a temperature of 0 or more, a top-p above 0 and at most 1");
    }
    this.temperature = temperature;
    this.topP = topP;
    this.random = new SplittableRandom(seed);
  }

  /** Whether this sampler always takes the largest logit. */
  public boolean isGreedy() {
    return temperature == 0;
  }

  /** The token chosen from {@code logits}. */
  public int next(float[] logits) {
    if (isGreedy()) {
      return argmax(logits);
    }
    double max = logits[argmax(logits)];
    double[] probability = new double[logits.length];
    double sum = 0;
    for (int i = 0; i < logits.length; i++) {
      probability[i] = Math.exp((logits[i] - max) / temperature);
      sum += probability[i];
    }
    Integer[] order = new Integer[logits.length];
    for (int i = 0; i < order.length; i++) {
      probability[i] /= sum;
      order[i] = i;
    }
    Arrays.sort(
        order, Comparator.comparingDouble((Integer i) -> -probability[i]).thenComparingInt(i -> i));
    int kept = 0;
    double mass = 0;
    while (kept < order.length && (kept == 0 || mass < topP)) {
      mass += probability[order[kept++]];
    }
    double draw = random.nextDouble() * mass;
    for (int k = 0; k < kept; k++) {
      draw -= probability[order[k]];
      if (draw < 0) {
        return order[k];
      }
    }
    return order[kept - 1];
  }

  /** The index of the largest value, the lowest among equals. */
  public static int argmax(float[] values) {
    int best = 0;
    for (int i = 1; i < values.length; i++) {
      if (values[i] > values[best]) {
        best = i;
      }
    }
    return best;
  }
}
