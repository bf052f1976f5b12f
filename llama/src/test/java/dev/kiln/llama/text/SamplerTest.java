package dev.kiln.llama.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Greedy, temperature and top-p sampling: what each keeps, and how often each token comes. */
class SamplerTest {
  private static final float[] LOGITS = {1f, 3f, 2f, 3f, -1f};

  @Test
  void greedyTakesTheLargestLogitTheLowestIdAmongEquals() {
    Sampler greedy = new Sampler(0, 1, 1);
    assertTrue(greedy.isGreedy());
    for (int i = 0; i < 10; i++) {
      assertEquals(1, greedy.next(LOGITS));
    }
  }

  @Test
  void topPKeepsTheMostProbableTokensUntilTheirMassReachesIt() {
    // softmax of LOGITS: 0.054, 0.397, 0.146, 0.397, 0.007; the two 3f hold 0.793, with 2f 0.939
    Sampler top = new Sampler(1, 0.5f, 7);
    for (int i = 0; i < 200; i++) {
      int token = top.next(LOGITS);
      assertTrue(token == 1 || token == 3, "token " + token);
    }
    Sampler wider = new Sampler(1, 0.9f, 7);
    int[] counts = new int[LOGITS.length];
    for (int i = 0; i < 4000; i++) {
      counts[wider.next(LOGITS)]++;
    }
    assertEquals(0, counts[0] + counts[4], "outside the top 0.9 of the mass");
    assertTrue(counts[2] > 0);
    // within the kept tokens, as their renormalized probabilities: 0.422, 0.422, 0.155
    assertEquals(0.422, counts[1] / 4000.0, 0.03);
    assertEquals(0.422, counts[3] / 4000.0, 0.03);
    assertEquals(0.155, counts[2] / 4000.0, 0.03);
  }

  @Test
  void temperatureFlattensOrSharpensAndTheSeedRepeats() {
    int[] hot = new int[LOGITS.length];
    int[] cold = new int[LOGITS.length];
    Sampler warm = new Sampler(4, 1, 3);
    Sampler cool = new Sampler(0.25f, 1, 3);
    for (int i = 0; i < 4000; i++) {
      hot[warm.next(LOGITS)]++;
      cold[cool.next(LOGITS)]++;
    }
    assertTrue(hot[4] > 200 && cold[4] == 0, hot[4] + " and " + cold[4] + " of the least likely");
    Sampler again = new Sampler(4, 1, 3);
    Sampler first = new Sampler(4, 1, 3);
    for (int i = 0; i < 50; i++) {
      assertEquals(first.next(LOGITS), again.next(LOGITS));
    }
    assertThrows(IllegalArgumentException.class, () -> new Sampler(-1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new Sampler(1, 0, 0));
  }
}
