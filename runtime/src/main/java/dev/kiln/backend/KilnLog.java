package dev.kiln.backend;

import java.lang.System.Logger.Level;

/**
 * Kiln's log, the {@code System.Logger} named {@code dev.kiln}, made on the first message: finding
 * the logger and publishing the first line through {@code java.util.logging} cost 60–80 ms in a
 * fresh JVM, more than the CPU backend's whole start, so nothing on the normal path logs.
 */
public final class KilnLog {
  private KilnLog() {}

  /** The logger, made when this holder initializes. */
  private static final class Holder {
    static final System.Logger LOG = System.getLogger("dev.kiln");
  }

  /**
   * Logs {@code format} ({@link java.text.MessageFormat} placeholders) with {@code args} at {@code level}.
   *
   * @param level the level
   * @param format the message
   * @param args its arguments
   */
  public static void log(Level level, String format, Object... args) {
    Holder.LOG.log(level, format, args);
  }
}
