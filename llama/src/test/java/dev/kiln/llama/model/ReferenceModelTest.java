package dev.kiln.llama.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.kiln.llama.weights.SafeTensors;
import dev.kiln.llama.weights.TensorType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reference model against numpy's float64 forward pass of the same tiny Llama (two layers,
 * grouped-query attention, Llama 3's RoPE scaling; {@code tiny_llama.py}): every logit of a
 * prompt's 8 steps and 8 greedy steps within float rounding, and the same greedy tokens, from
 * float16 and bfloat16 checkpoints of the same (exact) weights.
 */
class ReferenceModelTest {
  @ParameterizedTest
  @EnumSource(
      value = TensorType.class,
      names = {"F16", "BF16"})
  void givesNumpysLogitsAndGreedyTokens(TensorType type, @TempDir Path folder) throws Exception {
    LlamaConfig config = TinyCheckpoint.write(folder, type);
    JsonObject expected = TinyCheckpoint.expected();
    ReferenceModel model =
        new ReferenceModel(LlamaWeights.read(SafeTensors.open(folder), config), 64);
    JsonArray logits = expected.getAsJsonArray("logits");
    List<Integer> tokens = new ArrayList<>();
    expected.getAsJsonArray("prompt").forEach(token -> tokens.add(token.getAsInt()));
    int promptLength = tokens.size();
    double worst = 0;
    for (int step = 0; step < logits.size(); step++) {
      float[] got = model.step(tokens.get(step));
      JsonArray want = logits.get(step).getAsJsonArray();
      assertEquals(want.size(), got.length);
      int best = 0;
      for (int i = 0; i < got.length; i++) {
        double error = Math.abs(got[i] - want.get(i).getAsDouble());
        worst = Math.max(worst, error);
        assertTrue(
            error < 2e-5,
            "step " + step + ", logit " + i + ": " + got[i] + " against " + want.get(i));
        best = got[i] > got[best] ? i : best;
      }
      if (step + 1 >= promptLength && tokens.size() < logits.size()) {
        tokens.add(best);
      }
    }
    List<Integer> greedy = new ArrayList<>();
    expected.getAsJsonArray("greedy").forEach(token -> greedy.add(token.getAsInt()));
    assertEquals(greedy, tokens.subList(promptLength, tokens.size()));
    assertTrue(worst > 0, "float arithmetic differs from float64 somewhere: " + worst);
  }
}
