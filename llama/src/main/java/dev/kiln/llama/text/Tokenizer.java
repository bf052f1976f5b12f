package dev.kiln.llama.text;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The byte-level BPE tokenizer of a Hugging Face {@code tokenizer.json}, as Llama 3 ships it: added
 * (special) tokens split out first, then the pre-tokenizer's regex splits the text (its matches and
 * what lies between them each a piece), each piece's UTF-8 bytes become byte-level symbols, and the
 * merges join adjacent symbols, the lowest-ranked pair first (leftmost among equals); with {@code
 * ignore_merges} a piece that is a whole token is taken as it is. The post-processor's template
 * adds its special tokens (Llama 3's {@code <|begin_of_text|>}). The pre-tokenizers read are a
 * {@code Split} by regex followed by a {@code ByteLevel} without its own regex (Llama 3), or a
 * {@code ByteLevel} with GPT-2's regex; Java's regex takes the same patterns, with Unicode classes.
 */
public final class Tokenizer {
  /** GPT-2's split, which a {@code ByteLevel} pre-tokenizer with {@code use_regex} applies. */
  private static final String GPT2_SPLIT =
      "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

  private final Map<String, Integer> ids;
  private final String[] tokens;
  private final boolean[] special;
  private final Map<Long, Integer> mergeRanks;
  private final boolean ignoreMerges;
  private final Pattern split;
  private final Pattern added;
  private final int[] prefix;
  private final int[] suffix;

  private Tokenizer(
      Map<String, Integer> ids,
      String[] tokens,
      boolean[] special,
      Map<Long, Integer> mergeRanks,
      boolean ignoreMerges,
      Pattern split,
      Pattern added,
      int[] prefix,
      int[] suffix) {
    this.ids = ids;
    this.tokens = tokens;
    this.special = special;
    this.mergeRanks = mergeRanks;
    this.ignoreMerges = ignoreMerges;
    this.split = split;
    this.added = added;
    this.prefix = prefix;
    this.suffix = suffix;
  }

  /**
   * Reads {@code tokenizer.json} (or the one in a folder).
   *
   * @throws IOException where it cannot be read, or is not a byte-level BPE tokenizer Kiln reads
   */
  public static Tokenizer read(Path path) throws IOException {
    Path file = Files.isDirectory(path) ? path.resolve("tokenizer.json") : path;
    try {
      return parse(JsonParser.parseString(Files.readString(file)).getAsJsonObject());
    } catch (JsonParseException | IllegalStateException | NullPointerException e) {
      throw new IOException(file + " is not a tokenizer.json Kiln reads: " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  private static Tokenizer parse(JsonObject json) {
    JsonObject model = json.getAsJsonObject("model");
    if (!model.get("type").getAsString().equals("BPE")) {
      throw new IllegalArgumentException(
          "its model is " + model.get("type") + "; Kiln reads byte-level BPE (Llama 3's)");
    }
    Map<String, Integer> ids = new HashMap<>();
    int size = 0;
    for (Map.Entry<String, JsonElement> entry : model.getAsJsonObject("vocab").entrySet()) {
      int id = entry.getValue().getAsInt();
      ids.put(entry.getKey(), id);
      size = Math.max(size, id + 1);
    }
    List<String> addedTexts = new ArrayList<>();
    JsonArray addedTokens =
        json.has("added_tokens") ? json.getAsJsonArray("added_tokens") : new JsonArray();
    for (JsonElement element : addedTokens) {
      JsonObject token = element.getAsJsonObject();
      int id = token.get("id").getAsInt();
      size = Math.max(size, id + 1);
    }
    String[] tokens = new String[size];
    boolean[] special = new boolean[size];
    ids.forEach((token, id) -> tokens[id] = token);
    for (JsonElement element : addedTokens) {
      JsonObject token = element.getAsJsonObject();
      int id = token.get("id").getAsInt();
      String content = token.get("content").getAsString();
      tokens[id] = content;
      special[id] = true;
      ids.put(content, id);
      addedTexts.add(content);
    }
    Map<Long, Integer> ranks = new HashMap<>();
    JsonArray merges = model.getAsJsonArray("merges");
    for (int rank = 0; rank < merges.size(); rank++) {
      JsonElement merge = merges.get(rank);
      String left;
      String right;
      if (merge.isJsonArray()) {
        left = merge.getAsJsonArray().get(0).getAsString();
        right = merge.getAsJsonArray().get(1).getAsString();
      } else {
        String text = merge.getAsString();
        int space = text.indexOf(' ', 1);
        left = text.substring(0, space);
        right = text.substring(space + 1);
      }
      Integer a = ids.get(left);
      Integer b = ids.get(right);
      if (a == null || b == null || !ids.containsKey(left + right)) {
        throw new IllegalArgumentException(
            "merge "
                + rank
                + " (\""
                + left
                + "\" \""
                + right
                + "\") joins symbols or makes one"
                + " the vocabulary lacks");
      }
      ranks.putIfAbsent(pair(a, b), rank);
    }
    JsonElement ignore = model.get("ignore_merges");
    List<int[]> template = template(json.get("post_processor"));
    addedTexts.sort(Comparator.comparingInt(String::length).reversed());
    StringBuilder alternatives = new StringBuilder();
    for (String text : addedTexts) {
      alternatives.append(alternatives.isEmpty() ? "" : "|").append(Pattern.quote(text));
    }
    return new Tokenizer(
        ids,
        tokens,
        special,
        ranks,
        ignore != null && !ignore.isJsonNull() && ignore.getAsBoolean(),
        Pattern.compile(splitPattern(json.get("pre_tokenizer")), Pattern.UNICODE_CHARACTER_CLASS),
        addedTexts.isEmpty() ? null : Pattern.compile(alternatives.toString()),
        template.get(0),
        template.get(1));
  }

  /** The regex the pre-tokenizer splits by. */
  private static String splitPattern(JsonElement element) {
    JsonObject preTokenizer = element.getAsJsonObject();
    String type = preTokenizer.get("type").getAsString();
    if (type.equals("ByteLevel") && preTokenizer.get("use_regex").getAsBoolean()) {
      return GPT2_SPLIT;
    }
    if (type.equals("Sequence")) {
      JsonArray steps = preTokenizer.getAsJsonArray("pretokenizers");
      if (steps.size() == 2) {
        JsonObject first = steps.get(0).getAsJsonObject();
        JsonObject second = steps.get(1).getAsJsonObject();
        if (first.get("type").getAsString().equals("Split")
            && first.get("behavior").getAsString().equals("Isolated")
            && !first.get("invert").getAsBoolean()
            && second.get("type").getAsString().equals("ByteLevel")
            && !second.get("use_regex").getAsBoolean()) {
          return first.getAsJsonObject("pattern").get("Regex").getAsString();
        }
      }
    }
    throw new IllegalArgumentException(
        "its pre-tokenizer "
            + preTokenizer
            + " is not Llama 3's (a Split by regex, then ByteLevel)"
            + " or GPT-2's (ByteLevel with its regex)");
  }

  /**
   * The ids the post-processor puts before and after a text: a {@code TemplateProcessing}'s special
   * tokens around its sequence, alone or in a {@code Sequence}; none without one.
   */
  private static List<int[]> template(JsonElement element) {
    List<Integer> before = new ArrayList<>();
    List<Integer> after = new ArrayList<>();
    if (element != null && !element.isJsonNull()) {
      JsonObject processor = element.getAsJsonObject();
      List<JsonObject> processors = new ArrayList<>();
      if (processor.get("type").getAsString().equals("Sequence")) {
        processor.getAsJsonArray("processors").forEach(p -> processors.add(p.getAsJsonObject()));
      } else {
        processors.add(processor);
      }
      for (JsonObject step : processors) {
        if (step.get("type").getAsString().equals("TemplateProcessing")) {
          boolean seen = false;
          for (JsonElement item : step.getAsJsonArray("single")) {
            JsonObject piece = item.getAsJsonObject();
            if (piece.has("Sequence")) {
              seen = true;
            } else {
              String name = piece.getAsJsonObject("SpecialToken").get("id").getAsString();
              for (JsonElement id :
                  step.getAsJsonObject("special_tokens")
                      .getAsJsonObject(name)
                      .getAsJsonArray("ids")) {
                (seen ? after : before).add(id.getAsInt());
              }
            }
          }
        }
      }
    }
    return List.of(
        before.stream().mapToInt(Integer::intValue).toArray(),
        after.stream().mapToInt(Integer::intValue).toArray());
  }

  private static long pair(int left, int right) {
    return (long) left << 32 | right & 0xffffffffL;
  }

  /** The number of ids, added tokens included. */
  public int size() {
    return tokens.length;
  }

  /**
   * The id of token {@code token} (a special token's text, or byte-level symbols).
   *
   * @throws IllegalArgumentException where there is none
   */
  public int id(String token) {
    Integer id = ids.get(token);
    if (id == null) {
      throw new IllegalArgumentException("the vocabulary has no token '" + token + "'");
    }
    return id;
  }

  /** Whether {@code id} is an added (special) token, such as {@code <|eot_id|>}. */
  public boolean isSpecial(int id) {
    return special[id];
  }

  /**
   * {@code text}'s ids as the tokenizer's template makes them: its special tokens (Llama 3's {@code
   * <|begin_of_text|>}) around the text's.
   */
  public int[] encode(String text) {
    return encode(text, true);
  }

  /**
   * {@code text}'s ids; with {@code template}, the post-processor's special tokens around them.
   * Added tokens written in the text ({@code <|eot_id|>}) are those tokens.
   */
  public int[] encode(String text, boolean template) {
    List<Integer> out = new ArrayList<>();
    if (template) {
      for (int id : prefix) {
        out.add(id);
      }
    }
    int at = 0;
    if (added != null) {
      Matcher matcher = added.matcher(text);
      while (matcher.find()) {
        encodeOrdinary(text.substring(at, matcher.start()), out);
        out.add(ids.get(matcher.group()));
        at = matcher.end();
      }
    }
    encodeOrdinary(text.substring(at), out);
    if (template) {
      for (int id : suffix) {
        out.add(id);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Appends the ids of text without added tokens: split, then each piece by BPE. */
  private void encodeOrdinary(String text, List<Integer> out) {
    Matcher matcher = split.matcher(text);
    int at = 0;
    while (matcher.find()) {
      if (matcher.start() > at) {
        piece(ByteLevel.encode(text.substring(at, matcher.start())), out);
      }
      if (matcher.end() > matcher.start()) {
        piece(ByteLevel.encode(matcher.group()), out);
      }
      at = matcher.end();
    }
    if (at < text.length()) {
      piece(ByteLevel.encode(text.substring(at)), out);
    }
  }

  /** Appends the ids of one piece of byte-level symbols. */
  private void piece(String symbols, List<Integer> out) {
    if (ignoreMerges) {
      Integer whole = ids.get(symbols);
      if (whole != null) {
        out.add(whole);
        return;
      }
    }
    List<Integer> parts = new ArrayList<>(symbols.length());
    for (int i = 0; i < symbols.length(); i++) {
      Integer id = ids.get(symbols.substring(i, i + 1));
      if (id == null) {
        throw new IllegalStateException(
            "the vocabulary lacks byte-level symbol '" + symbols.charAt(i) + "'");
      }
      parts.add(id);
    }
    while (parts.size() > 1) {
      int best = -1;
      int bestRank = Integer.MAX_VALUE;
      for (int i = 0; i + 1 < parts.size(); i++) {
        Integer rank = mergeRanks.get(pair(parts.get(i), parts.get(i + 1)));
        if (rank != null && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) {
        break;
      }
      parts.set(best, ids.get(tokens[parts.get(best)] + tokens[parts.get(best + 1)]));
      parts.remove(best + 1);
    }
    out.addAll(parts);
  }

  /**
   * The text of {@code ids}: each token's bytes, decoded as UTF-8; special tokens as their text.
   */
  public String decode(int... ids) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int id : ids) {
      if (special[id]) {
        bytes.writeBytes(tokens[id].getBytes(StandardCharsets.UTF_8));
      } else {
        ByteLevel.decode(tokens[id], bytes);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
