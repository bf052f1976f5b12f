package dev.kiln.processor.lower;

/** Thrown where a construct depends on one whose error was already reported, by Kiln or by javac. */
final class AlreadyReported extends RuntimeException {
  AlreadyReported() {
    super(null, null, false, false);
  }
}
