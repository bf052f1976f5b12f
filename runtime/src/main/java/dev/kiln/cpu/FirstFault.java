package dev.kiln.cpu;

/**
 * The fault Java's loop over a launch's invocations would throw, among those that parts of the
 * launch run side by side threw: the one of the lowest part, parts being numbered in the order Java
 * runs them (workgroups x fastest, then the invocations of each). Thread-safe.
 */
final class FirstFault {
  private long part = Long.MAX_VALUE;
  private Throwable thrown;

  /** Keeps {@code fault}, thrown by part {@code at}, if no lower part threw. */
  synchronized void offer(long at, Throwable fault) {
    if (at < part) {
      part = at;
      thrown = fault;
    }
  }

  /** Whether no part below {@code at} has thrown: part {@code at} still matters. */
  synchronized boolean before(long at) {
    return at < part;
  }

  /** The exception of the lowest part that threw, or null. */
  synchronized Throwable thrown() {
    return thrown;
  }
}
