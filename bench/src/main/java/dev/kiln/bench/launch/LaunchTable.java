package dev.kiln.bench.launch;

import dev.kiln.bench.Measure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The launch-overhead programs' figures: each printed as a line of their table and, when the
 * program's second argument names a folder, appended to its {@code launch.csv} as
 * {@code implementation,operation,median_us} ({@code bench/run-gpu-suite.sh} passes its out folder).
 */
final class LaunchTable {
  static final String HEADER = "implementation,operation,median_us";

  private final String implementation;
  private final Path csv;

  LaunchTable(String implementation, String[] args) {
    this.implementation = implementation;
    this.csv = args.length > 1 ? Path.of(args[1], "launch.csv") : null;
  }

  /** Prints {@code operation}'s figure, with {@code note} after it, and adds its CSV row. */
  void row(String operation, double micros, String note) {
    if (operation.contains(",")) {
      throw new IllegalArgumentException("a CSV field with a comma: " + operation);
    }
    System.out.printf(Locale.ROOT, "%-36s %8.2f µs %s%n", operation, micros, note);
    if (csv == null) {
      return;
    }
    try {
      if (!Files.exists(csv)) {
        Files.writeString(csv, HEADER + "\n");
      }
      Files.writeString(csv, String.format(Locale.ROOT, "%s,%s,%.3f%n", implementation, operation, micros),
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The median of {@code runs} runs of {@code run} after {@code warmUpNanos} of it ({@link Measure#runs}). */
  static long median(int runs, long warmUpNanos, LongSupplier run) {
    long[] nanos = Measure.runs(warmUpNanos, runs, run);
    Arrays.sort(nanos);
    return nanos[runs / 2];
  }
}
