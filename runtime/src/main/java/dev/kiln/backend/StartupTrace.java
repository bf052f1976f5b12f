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
  private static final List<String> STAGES = new ArrayList<>();
  private static long last;
  private static boolean reported;

  private StartupTrace() {}

  /** Starts the trace where Kiln's start-up begins: what ran before, since the JVM started, is one stage. */
  public static void begin() {
    if (!ON) {
      return;
    }
    synchronized (STAGES) {
      if (last == 0) {
        last = System.nanoTime();
        STAGES.add(String.format("%-46s %8s   %6d ms since the JVM started", "before Device.open()", "",
            ManagementFactory.getRuntimeMXBean().getUptime()));
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
      if (reported) {
        return; // later launches mark too: keep nothing of them
      }
      long now = System.nanoTime();
      STAGES.add(String.format("%-46s %7.1f ms  %6d ms since the JVM started", stage, (now - last) / 1e6,
          ManagementFactory.getRuntimeMXBean().getUptime()));
      last = now;
    }
  }

  /** Prints the stages once, after the first launch. */
  public static void reportFirstLaunch() {
    if (!ON) {
      return;
    }
    synchronized (STAGES) {
      if (reported) {
        return;
      }
      reported = true;
      System.err.println("Kiln start-up (kiln.startupTrace):");
      STAGES.forEach(line -> System.err.println("  " + line));
    }
  }
}
