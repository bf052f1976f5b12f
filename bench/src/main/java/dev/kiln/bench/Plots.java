package dev.kiln.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws the suite's charts from the figures of one run: {@code results.csv} (GpuSuite) and
 * {@code torch.csv} ({@code bench/torch_suite.py}) in one folder, into one PNG per workload beside them.
 *
 * <p>{@code java -cp ... dev.kiln.bench.Plots <folder>}
 */
public final class Plots {
  private Plots() {}

  public static void main(String[] args) throws IOException {
    Path folder = Path.of(args.length > 0 ? args[0] : "bench-results");
    List<Results.Row> rows = new ArrayList<>(Results.read(folder.resolve("results.csv")));
    rows.addAll(Results.read(folder.resolve("torch.csv")));
    for (String workload : List.of("copy", "saxpy", "chain", "sum", "scan", "histogram", "stencil", "sgemm")) {
      boolean flops = workload.equals("sgemm");
      Plot plot = new Plot(workload + (flops ? ": n x n matrix product" : ": bandwidth (bytes read + written)"),
          flops ? "n" : "elements", flops ? "GFLOP/s" : "GB/s");
      rows.stream().filter(row -> row.workload().equals(workload))
          .forEach(row -> plot.point(row.variant(), row.n(), row.rate()));
      if (!plot.isEmpty()) {
        plot.write(folder.resolve(workload + ".png"));
      }
    }
  }
}
