package dev.kiln.backend;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a process's start-up goes, with {@code -Dkiln.startupTrace=true}: each stage of opening a
 * device and of the first launch marks its end, and the first launch prints the stages to standard
 * error, with the milliseconds each took and since the JVM started. Off, a mark is one branch.
 */
public final class StartupTrace {
  private static final boolean ON = Boolean.getBoolean("kiln.startupTrace");
  /** A stage and the {@code System.nanoTime()} of its end; formatted only in the report. */
  private record Stage(String name, long end) {}

  private static final List<Stage> STAGES = new ArrayList<>();
  private static boolean reported;

  private StartupTrace() {}

  /** Starts the trace where Kiln's start-up begins: what ran before, since the JVM started, is one stage. */
  public static void begin() {
    if (!ON) {
      return;
    }
    synchronized (STAGES) {
      if (STAGES.isEmpty()) {
        STAGES.add(new Stage("before Device.open()", System.nanoTime()));
      }
    }
  }

  /** Marks the end of {@code stage}, which began where the previous one ended; nothing after the report. */
  public static void mark(String stage) {
    if (!ON) {
      return;
    }
    begin();
    synchronized (STAGES) {
      if (!reported) { // later launches mark too: keep nothing of them
        STAGES.add(new Stage(stage, System.nanoTime()));
      }
    }
  }

  /**
   * Prints the stages once, after the first launch: only now are the figures formatted and the JVM's
   * uptime read, so that the trace adds neither to the stages it measures.
   */
  public static void reportFirstLaunch() {
    if (!ON) {
      return;
    }
    synchronized (STAGES) {
      if (reported) {
        return;
      }
      reported = true;
      long now = System.nanoTime();
      long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
      System.err.println("Kiln start-up (kiln.startupTrace):");
      for (int k = 0; k < STAGES.size(); k++) {
        Stage stage = STAGES.get(k);
        long since = uptime - (now - stage.end()) / 1_000_000;
        String took = k == 0 ? "" : String.format("%7.1f ms", (stage.end() - STAGES.get(k - 1).end()) / 1e6);
        System.err.println(String.format("  %-46s %10s  %6d ms since the JVM started", stage.name(), took, since));
      }
    }
  }
}
