package dev.kiln.processor.diag;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import dev.kiln.processor.Goldens;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every message of the catalogue, made by its factory in {@link Errors} with placeholder arguments
 * and rendered in full, against the golden file {@code messages.txt}: a template that renders badly
 * ("the an increment", an argument the factory does not pass) fails the build here, whether or not
 * a test reaches it, and so does a message without a factory.
 */
class MessagesTest {
  @Test
  void everyMessageRendersAsItsGoldenText() throws ReflectiveOperationException {
    List<Diagnostic> diagnostics = new java.util.ArrayList<>();
    for (Method factory : Errors.class.getDeclaredMethods()) {
      if (Modifier.isPublic(factory.getModifiers())) {
        diagnostics.add(
            (Diagnostic) factory.invoke(null, placeholders(factory.getParameterTypes())));
      }
    }
    diagnostics.sort(Comparator.comparing(Diagnostic::message));
    Set<Message> made = EnumSet.noneOf(Message.class);
    StringBuilder rendered = new StringBuilder();
    for (Diagnostic diagnostic : diagnostics) {
      assertWithMessage("factories of %s", diagnostic.message())
          .that(made.add(diagnostic.message()))
          .isTrue();
      String text = diagnostic.text();
      assertWithMessage("%s", diagnostic.message())
          .that(text)
          .matches("\\[kiln\\.[\\w.]+\\] [^%]+\\. Fix: [^%]+\\.");
      rendered.append(text).append('\n');
    }
    assertThat(made).containsExactlyElementsIn(Arrays.asList(Message.values()));
    Goldens.assertMatches("messages.txt", rendered.toString());
  }

  /**
   * An argument per parameter: 100 + its position for numbers, {@code <k>} (from 1) for the rest.
   */
  private static Object[] placeholders(Class<?>[] types) {
    Object[] args = new Object[types.length];
    for (int k = 0; k < types.length; k++) {
      args[k] =
          types[k] == int.class
              ? (Object) (100 + k)
              : types[k] == long.class ? (Object) (100L + k) : "<" + (k + 1) + ">";
    }
    return args;
  }
}
