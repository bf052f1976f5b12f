package dev.kiln.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import dev.kiln.processor.diag.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every message of the catalogue, rendered in full with numbered placeholders, against the golden
 * file {@code messages.txt}: a template that renders badly ("the an increment", a missing argument)
 * fails the build here, whether or not a test reaches it.
 */
class MessagesTest {
  private static final Pattern SPECIFIER = Pattern.compile("%(?:(\\d+)\\$)?([sd])");

  @Test
  void everyMessageRendersAsItsGoldenText() {
    StringBuilder rendered = new StringBuilder();
    for (Message message : Message.values()) {
      String text = message.render(placeholders(message.templates()));
      assertWithMessage("%s", message).that(text).matches("\\[kiln\\.[\\w.]+\\] [^%]+\\. Fix: [^%]+\\.");
      rendered.append(text).append('\n');
    }
    Goldens.assertMatches("messages.txt", rendered.toString());
  }

  /** An argument per position the templates name: numbers for %d, {@code <k>} for %s. */
  private static Object[] placeholders(String templates) {
    List<Object> args = new ArrayList<>();
    Matcher specifier = SPECIFIER.matcher(templates);
    int next = 0;
    while (specifier.find()) {
      int position = specifier.group(1) != null ? Integer.parseInt(specifier.group(1)) - 1 : next++;
      while (args.size() <= position) {
        args.add(null);
      }
      if (args.get(position) == null) {
        args.set(position, specifier.group(2).equals("d") ? (Object) (100 + position) : "<" + (position + 1) + ">");
      }
    }
    return args.toArray();
  }
}
