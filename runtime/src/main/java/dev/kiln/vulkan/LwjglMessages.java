package dev.kiln.vulkan;

import dev.kiln.backend.KilnLog;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.lwjgl.system.Configuration;

/**
 * LWJGL's own messages, which it prints to standard error by default: where a library fails to load
 * it prints five lines of hints ("[LWJGL] Failed to load a library. Possible solutions: ..."),
 * which on a machine without a Vulkan loader came before Kiln's one line that says what is missing
 * and which backend runs instead. Kiln sends them to its logger at {@code DEBUG} ({@code FINE} in
 * {@code java.util.logging}), shown only when asked for. A user who configured LWJGL's debug output
 * ({@code -Dorg.lwjgl.util.Debug}, {@code -Dorg.lwjgl.util.DebugStream}, or {@code
 * Configuration.DEBUG_STREAM}) keeps it as configured.
 */
final class LwjglMessages {
  private LwjglMessages() {}

  /**
   * Routes LWJGL's messages to Kiln's logger; before LWJGL's first message, else without effect.
   */
  static void toKilnLog() {
    if (System.getProperty("org.lwjgl.util.Debug") == null
        && System.getProperty("org.lwjgl.util.DebugStream") == null
        && Configuration.DEBUG_STREAM.get() == null) {
      Configuration.DEBUG_STREAM.set(new PrintStream(new Lines(), true, StandardCharsets.UTF_8));
    }
  }

  /** Logs each line written to it. */
  private static final class Lines extends OutputStream {
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        KilnLog.logger()
            .log(System.Logger.Level.DEBUG, "LWJGL: {0}", line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }
  }
}
