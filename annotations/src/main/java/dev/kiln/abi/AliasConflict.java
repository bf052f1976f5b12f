package dev.kiln.abi;

import java.util.Objects;

/**
 * Two buffer parameters of a kernel or group that must not receive the same array: the kernel
 * writes one of them at elements that other invocations may reach through the other, so that with
 * one array the result would depend on the order the device runs its invocations, where Java's loop
 * over them has one. Pairs of one element type only (arrays of two types are never one array), and
 * only where the processor cannot prove every access of both the invocation's own element at one
 * index. A module carries its conflicts ({@link #encode}); the runtime refuses a launch that passes
 * one array for both.
 *
 * @param first a buffer parameter's name
 * @param second another buffer parameter's name
 */
public record AliasConflict(String first, String second) {
  /** The text of the {@code OpModuleProcessed} that carries a conflict, followed by {@link #encode()}. */
  public static final String PROCESSED = "kiln.aliasConflict ";

  /** Checks the names. */
  public AliasConflict {
    Objects.requireNonNull(first);
    Objects.requireNonNull(second);
  }

  /**
   * The conflict as the module carries it.
   *
   * @return the two names, a space between them
   */
  public String encode() {
    return first + " " + second;
  }

  /**
   * The conflict a module carries.
   *
   * @param text what {@link #encode()} made
   * @return the conflict
   */
  public static AliasConflict decode(String text) {
    int space = text.indexOf(' ');
    if (space < 1 || space == text.length() - 1) {
      throw new IllegalArgumentException("not an alias conflict: " + text);
    }
    return new AliasConflict(text.substring(0, space), text.substring(space + 1));
  }
}
