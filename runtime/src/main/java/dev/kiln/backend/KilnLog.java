package dev.kiln.backend;

/**
 * Kiln's log, the {@code System.Logger} named {@code dev.kiln}, made on the first message: finding
 * the logger and publishing the first line through {@code java.util.logging} cost 60–80 ms in a
 * fresh JVM, more than the CPU backend's whole start, so nothing on the normal path logs.
 *
 * <p>Callers log on the logger themselves ({@code KilnLog.logger().log(...)}), so that {@code
 * java.util.logging} names their class and method as a record's source, not this one.
 */
public final class KilnLog {
  private KilnLog() {}

  /** The logger, made when this holder initializes. */
  private static final class Holder {
    static final System.Logger LOG = System.getLogger("dev.kiln");
  }

  /**
   * The logger {@code dev.kiln}; made on the first call.
   *
   * @return the logger
   */
  public static System.Logger logger() {
    return Holder.LOG;
  }
}
