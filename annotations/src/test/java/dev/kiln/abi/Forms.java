package dev.kiln.abi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@link LaunchForm}s from the text {@link LaunchForm#toString()} writes, for tests. */
final class Forms {
  private Forms() {}

  /** {@code "0+1*g0+-1*s:2"}: the constant, then each coefficient and term. */
  static LaunchForm form(String text) {
    String[] parts = text.split("\\+");
    Map<String, Long> terms = new TreeMap<>();
    for (int i = 1; i < parts.length; i++) {
      int star = parts[i].indexOf('*');
      terms.merge(
          parts[i].substring(star + 1),
          Long.parseLong(parts[i].substring(0, star)),
          Math::addExact);
    }
    return new LaunchForm(Long.parseLong(parts[0]), terms);
  }

  /** Forms separated by spaces; {@code "-"} for none. */
  static List<LaunchForm> forms(String text) {
    List<LaunchForm> forms = new ArrayList<>();
    if (!text.equals("-")) {
      for (String form : text.split(" ")) {
        forms.add(form(form));
      }
    }
    return forms;
  }

  /**
   * {@code targets | facts | unequal | requires | access}, as the processor's golden files write a
   * proof.
   */
  static LaunchProof proof(String text) {
    String[] sections = text.split(" \\| ", 5);
    return new LaunchProof(
        forms(sections[0]),
        forms(sections[1]),
        forms(sections[2]),
        forms(sections[3]),
        sections[4]);
  }
}
