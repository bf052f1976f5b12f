package dev.kiln.llama.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tokenizer against Hugging Face's {@code tokenizers} (0.23.2): a small byte-level BPE
 * tokenizer in Llama 3's form and the ids {@code tokenizers} gave for strings with contractions in
 * both cases, digit runs, whitespace runs, CRLF, accents, CJK, emoji, code and special tokens
 * written in the text ({@code src/test/python/make_tokenizer_fixture.py} made both files).
 */
class TokenizerTest {
  private static Path fixture(String name) throws URISyntaxException {
    return Path.of(TokenizerTest.class.getResource(name).toURI());
  }

  private static int[] ints(JsonElement array) {
    return array.getAsJsonArray().asList().stream().mapToInt(JsonElement::getAsInt).toArray();
  }

  @Test
  void givesTheIdsHuggingFaceTokenizersGives() throws Exception {
    Tokenizer tokenizer = Tokenizer.read(fixture("tokenizer.json"));
    JsonObject expected =
        JsonParser.parseString(Files.readString(fixture("tokenizer-expected.json")))
            .getAsJsonObject();
    int cases = 0;
    for (JsonElement element : expected.getAsJsonArray("cases")) {
      JsonObject test = element.getAsJsonObject();
      String text = test.get("text").getAsString();
      assertArrayEquals(
          ints(test.get("ids")), tokenizer.encode(text), "with the template: " + text);
      assertArrayEquals(ints(test.get("plain")), tokenizer.encode(text, false), "without: " + text);
      assertEquals(
          test.get("decoded").getAsString(), tokenizer.decode(tokenizer.encode(text)), text);
      assertEquals(text, tokenizer.decode(tokenizer.encode(text, false)), "round trip");
      cases++;
    }
    assertEquals(12, cases);
  }

  @Test
  void namesSpecialTokensAndTheirIds() throws Exception {
    Tokenizer tokenizer = Tokenizer.read(fixture("tokenizer.json"));
    int eot = tokenizer.id("<|eot_id|>");
    assertTrue(tokenizer.isSpecial(eot));
    assertEquals(705, tokenizer.size());
    assertEquals("<|eot_id|>", tokenizer.decode(eot));
    int space = tokenizer.id("\u0120"); // the byte-level symbol of ' '
    assertTrue(!tokenizer.isSpecial(space));
    assertEquals(" ", tokenizer.decode(space));
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> tokenizer.id("<|nothing|>"));
    assertTrue(missing.getMessage().contains("<|nothing|>"), missing.getMessage());
  }

  @Test
  void refusesTokenizersItDoesNotRead(@TempDir Path folder) throws Exception {
    String json = Files.readString(fixture("tokenizer.json"));
    Path wordPiece = folder.resolve("tokenizer.json");
    Files.writeString(wordPiece, json.replace("\"type\": \"BPE\"", "\"type\": \"WordPiece\""));
    IOException notBpe = assertThrows(IOException.class, () -> Tokenizer.read(folder));
    assertTrue(notBpe.getMessage().contains("byte-level BPE"), notBpe.getMessage());
    Files.writeString(
        wordPiece, json.replace("\"behavior\": \"Isolated\"", "\"behavior\": \"Removed\""));
    IOException split = assertThrows(IOException.class, () -> Tokenizer.read(wordPiece));
    assertTrue(split.getMessage().contains("not Llama 3's"), split.getMessage());
    Files.writeString(wordPiece, "{\"model\": ");
    assertThrows(IOException.class, () -> Tokenizer.read(wordPiece));
  }
}
