package dev.kiln.processor.diag;

import java.util.Arrays;
import java.util.List;

/** A catalogued message with its arguments, made by one of {@link Errors}' factories. */
public record Diagnostic(Message message, List<Object> args) {
  Diagnostic(Message message, Object... args) {
    this(message, List.copyOf(Arrays.asList(args)));
  }

  /** {@code [id] message. Fix: fix.} */
  public String text() {
    return message.render(args.toArray());
  }
}
