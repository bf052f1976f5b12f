package dev.kiln.processor.lower;

/**
 * Thrown where a construct depends on one whose error was already reported, by Kiln or by javac.
 */
final class AlreadyReported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  AlreadyReported() {
    super(null, null, false, false);
  }
}
