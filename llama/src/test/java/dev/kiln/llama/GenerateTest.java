package dev.kiln.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.kiln.llama.model.TinyCheckpoint;
import dev.kiln.llama.weights.TensorType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line program on the tiny checkpoint (no tokenizer: {@code --prompt-ids}) on the CPU
 * backend, against the greedy tokens and logits numpy computed for it: without the prefill (the
 * prompt through the recorded step, float32 throughout) the same tokens and each generated token's
 * logits ({@code --logits}) within 2e-4; with it, the logits within 2 units of float16's rounding
 * times the largest logit (the prefill's factors are float16).
 */
class GenerateTest {
  @Test
  void idsAndLogitsAreNumpysWithAndWithoutThePrefill(@TempDir Path folder) throws Exception {
    TinyCheckpoint.write(folder, TensorType.F16);
    JsonObject expected = TinyCheckpoint.expected();
    int[] prompt = ints(expected.getAsJsonArray("prompt"));
    int[] greedy = ints(expected.getAsJsonArray("greedy"));
    JsonArray logits = expected.getAsJsonArray("logits");
    int[] all = IntStream.concat(Arrays.stream(prompt), Arrays.stream(greedy)).toArray();
    for (boolean prefill : new boolean[] {false, true}) {
      Path file = folder.resolve("logits-" + prefill + ".bin");
      String out = generate(folder, prompt, greedy.length, file, prefill);
      float[] written = floats(Files.readAllBytes(file));
      int vocabulary = logits.get(0).getAsJsonArray().size();
      assertEquals(greedy.length * vocabulary, written.length, "a row of logits a token");
      if (!prefill) {
        assertEquals(ids(all), idsLine(out), out);
      }
      for (int t = 0; t < greedy.length; t++) {
        JsonArray row = logits.get(prompt.length - 1 + t).getAsJsonArray();
        double largest = 0;
        for (JsonElement logit : row) {
          largest = Math.max(largest, Math.abs(logit.getAsDouble()));
        }
        double tolerance = prefill ? 2 * 0x1p-11 * largest : 2e-4;
        for (int i = 0; i < vocabulary; i++) {
          assertEquals(
              row.get(i).getAsDouble(),
              written[t * vocabulary + i],
              tolerance,
              "logit " + i + " of token " + t + ", prefill " + prefill);
        }
      }
    }
  }

  /**
   * Greedy steps without {@code --logits} run back to back on the device, the host reading their
   * tokens between pieces: 40 steps (three pieces, the last short) give numpy's first tokens and
   * the same ids as the steps run one at a time (with {@code --logits}).
   */
  @Test
  void chainedGreedyStepsAreTheStepsOneAtATime(@TempDir Path folder) throws Exception {
    TinyCheckpoint.write(folder, TensorType.F16);
    JsonObject expected = TinyCheckpoint.expected();
    int[] prompt = ints(expected.getAsJsonArray("prompt"));
    int[] greedy = ints(expected.getAsJsonArray("greedy"));
    String chained = idsLine(generate(folder, prompt, 40, null, false));
    String single = idsLine(generate(folder, prompt, 40, folder.resolve("logits.bin"), false));
    assertEquals(single, chained);
    int[] all = IntStream.concat(Arrays.stream(prompt), Arrays.stream(greedy)).toArray();
    assertTrue(chained.startsWith(ids(all) + ","), chained);
    assertEquals(prompt.length + 40, chained.split(",").length, chained);
  }

  private static String idsLine(String out) {
    return out.lines().filter(l -> l.startsWith("ids: ")).findFirst().orElseThrow();
  }

  /**
   * Runs the program on the CPU backend, returning what it printed; no {@code --logits} if null.
   */
  private static String generate(Path folder, int[] prompt, int steps, Path logits, boolean prefill)
      throws Exception {
    String[] args = {
      "--model", folder.toString(),
      "--prompt-ids", ids(prompt).substring("ids: ".length()),
      "--steps", Integer.toString(steps),
      "--positions", "64"
    };
    if (logits != null) {
      args = Arrays.copyOf(args, args.length + 2);
      args[args.length - 2] = "--logits";
      args[args.length - 1] = logits.toString();
    }
    if (!prefill) {
      args = Arrays.copyOf(args, args.length + 1);
      args[args.length - 1] = "--no-prefill";
    }
    String device = System.getProperty("kiln.device");
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setProperty("kiln.device", "cpu");
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      Generate.main(args);
    } finally {
      System.setOut(out);
      if (device == null) {
        System.clearProperty("kiln.device");
      } else {
        System.setProperty("kiln.device", device);
      }
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  private static String ids(int[] ids) {
    return "ids: "
        + String.join(",", Arrays.stream(ids).mapToObj(Integer::toString).toArray(String[]::new));
  }

  private static int[] ints(JsonArray array) {
    return array.asList().stream().mapToInt(JsonElement::getAsInt).toArray();
  }

  private static float[] floats(byte[] bytes) {
    float[] values = new float[bytes.length / Float.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
    return values;
  }
}
