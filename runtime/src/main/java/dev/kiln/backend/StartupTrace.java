package dev.kiln.backend;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a process's start-up goes, with {@code -Dkiln.startupTrace=true}: each stage of opening a
 * device and of the first launch marks its end, and the first launch prints the stages to standard
 * error, with the milliseconds each took and since the JVM started, then the work done meanwhile on
 * other threads ({@link #meanwhile}). Off, a mark is one branch.
 */
public final class StartupTrace {
  private static final boolean ON = Boolean.getBoolean("kiln.startupTrace");

  /** A stage and the {@code System.nanoTime()} of its end; formatted only in the report. */
  private record Stage(String name, long end) {}

  /** Work on another thread, from {@code start} to {@code end} ({@code System.nanoTime()}). */
  private record Aside(String name, long start, long end) {}

  private static final List<Stage> STAGES = new ArrayList<>();
  private static final List<Aside> ASIDES = new ArrayList<>();
  private static boolean reported;

  /** Work begun on other threads and not yet recorded. Guarded by {@code STAGES}. */
  private static int pending;

  private StartupTrace() {}

  /**
   * Starts the trace where Kiln's start-up begins: what ran before, since the JVM started, is one
   * stage.
   */
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

  /**
   * Marks the end of {@code stage}, which began where the previous one ended; nothing after the
   * report.
   */
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
   * Marks the start of work on another thread that overlaps the stages; the report waits for it (up
   * to a second) so that it lists it.
   *
   * @return the start, to pass to {@link #meanwhile}
   */
  public static long asideBegins() {
    if (ON) {
      synchronized (STAGES) {
        pending++;
      }
    }
    return System.nanoTime();
  }

  /**
   * Records {@code work}, done on another thread from {@code start} (from {@link #asideBegins()})
   * until now; nothing after the report.
   *
   * @param work what the thread did
   * @param start when it began
   */
  public static void meanwhile(String work, long start) {
    if (!ON) {
      return;
    }
    long end = System.nanoTime();
    synchronized (STAGES) {
      pending--;
      if (!reported) {
        ASIDES.add(new Aside(work, start, end));
      }
      STAGES.notifyAll();
    }
  }

  /**
   * Prints the stages once, after the first launch: only now are the figures formatted and the
   * JVM's uptime read, so that the trace adds neither to the stages it measures.
   */
  public static void reportFirstLaunch() {
    if (!ON) {
      return;
    }
    synchronized (STAGES) {
      if (reported) {
        return;
      }
      long now = System.nanoTime();
      awaitAsides(now);
      reported = true;
      long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
      System.err.println("Kiln start-up (kiln.startupTrace):");
      for (int k = 0; k < STAGES.size(); k++) {
        Stage stage = STAGES.get(k);
        String took =
            k == 0 ? "" : String.format("%7.1f ms", (stage.end() - STAGES.get(k - 1).end()) / 1e6);
        System.err.println(line(stage.name(), took, uptime - (now - stage.end()) / 1_000_000));
      }
      if (!ASIDES.isEmpty()) {
        System.err.println(" meanwhile, on other threads:");
      }
      for (Aside aside : ASIDES) {
        System.err.println(
            line(
                aside.name(),
                String.format("%7.1f ms", (aside.end() - aside.start()) / 1e6),
                uptime - (now - aside.end()) / 1_000_000));
      }
      if (pending > 0) {
        System.err.println("  (" + pending + " still running after a second's wait)");
      }
    }
  }

  /**
   * Waits up to a second from {@code now} for the work begun on other threads; holds {@code
   * STAGES}.
   */
  private static void awaitAsides(long now) {
    long deadline = now + 1_000_000_000L;
    try {
      for (long left = deadline - System.nanoTime();
          pending > 0 && left > 0;
          left = deadline - System.nanoTime()) {
        STAGES.wait(Math.max(1, left / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String line(String name, String took, long endSinceJvmStart) {
    return String.format(
        "  %-46s %10s  %6d ms since the JVM started", name, took, endSinceJvmStart);
  }
}
