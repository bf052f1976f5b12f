package dev.kiln.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The suite's figures: one row per workload, variant and size, written as {@code results.csv}
 * (which {@code bench/torch_suite.py} writes too, as {@code torch.csv}) and read back for the plots.
 */
final class Results {
  static final String HEADER = "workload,variant,n,work,median_ms,p10_ms,p90_ms,clock_mhz";

  /**
   * One measured figure; {@code work} is what the workload does in one run: bytes read and written,
   * or floating-point operations for the matrix product ({@link #unit()}).
   */
  record Row(String workload, String variant, long n, long work, Measure.Figure figure) {
    /** Work per second, in G{@link #unit()}. */
    double rate() {
      return figure.billionsPerSecond(work);
    }

    String unit() {
      return workload.endsWith("gemm") ? "FLOP/s" : "B/s";
    }

    String csv() {
      return String.format(Locale.ROOT, "%s,%s,%d,%d,%.5f,%.5f,%.5f,%d", workload, variant, n, work,
          figure.medianMs(), figure.lowMs(), figure.highMs(), figure.clockMhz());
    }

    static Row parse(String line) {
      String[] f = line.split(",");
      return new Row(f[0], f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), new Measure.Figure(
          Double.parseDouble(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6]), Integer.parseInt(f[7])));
    }
  }

  private final List<Row> rows = new ArrayList<>();

  void add(String workload, String variant, long n, long work, Measure.Figure figure) {
    Row row = new Row(workload, variant, n, work, figure);
    rows.add(row);
    System.out.printf(Locale.ROOT, "%-10s %-16s n=%-10d %9.4f ms (p10 %.4f, p90 %.4f) %7.0f G%s  SM %s%n", workload,
        variant, n, figure.medianMs(), figure.lowMs(), figure.highMs(), row.rate(), row.unit(), figure.clock());
  }

  void write(Path file) throws IOException {
    List<String> lines = new ArrayList<>(List.of(HEADER));
    rows.forEach(row -> lines.add(row.csv()));
    Files.write(file, lines);
  }

  /** The rows of a CSV file this class or {@code torch_suite.py} wrote; none if it does not exist. */
  static List<Row> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return List.of();
    }
    return Files.readAllLines(file).stream().skip(1).filter(line -> !line.isBlank()).map(Row::parse).toList();
  }
}
