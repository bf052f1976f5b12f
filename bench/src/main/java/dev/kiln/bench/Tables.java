package dev.kiln.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Prints docs/PERFORMANCE.md's tables, in Markdown, from the figures of one suite run: a folder
 * holding {@code results.csv}, {@code torch.csv} and {@code launch.csv} ({@code bench/run-gpu-suite.sh}'s).
 *
 * <p>{@code java -cp ... dev.kiln.bench.Tables <folder>}
 */
public final class Tables {
  private final List<Results.Row> rows = new ArrayList<>();

  private Tables(Path folder) throws IOException {
    rows.addAll(Results.read(folder.resolve("results.csv")));
    rows.addAll(Results.read(folder.resolve("torch.csv")));
  }

  public static void main(String[] args) throws IOException {
    Path folder = Path.of(args.length > 0 ? args[0] : "bench-results");
    Tables tables = new Tables(folder);
    tables.bandwidth();
    tables.chain();
    tables.workgroups();
    launch(folder.resolve("launch.csv"));
  }

  private Optional<Results.Row> row(String workload, String variant, long n) {
    return rows.stream().filter(r -> r.workload().equals(workload) && r.variant().equals(variant) && r.n() == n)
        .findFirst();
  }

  private List<Long> sizes(String workload) {
    return rows.stream().filter(r -> r.workload().equals(workload)).map(Results.Row::n).distinct().sorted().toList();
  }

  /** (a): copy and saxpy against their GLSL twins, PyTorch and the copy ceiling. */
  private void bandwidth() {
    header("| n | workload | Kiln ms (p10–p90) | GB/s | GLSL vec4 ms | Kiln / GLSL (time) | PyTorch ms"
        + " | PyTorch / Kiln (time) | rate / copy ceiling | SM MHz |");
    for (long n : sizes("copy")) {
      for (String workload : List.of("copy", "saxpy")) {
        Optional<Results.Row> kiln = row(workload, "Kiln", n);
        if (kiln.isEmpty()) {
          continue;
        }
        Results.Row k = kiln.get();
        Optional<Results.Row> glsl = row(workload, "GLSL vec4", n);
        Optional<Results.Row> torch = row(workload, "torch", n);
        Optional<Results.Row> ceiling = row("copy", "GLSL vec4", n);
        print("| %s | %s | %s | %.0f | %s | %s | %s | %s | %s | %d |", size(workload, n), workload, withSpread(k), k.rate(),
            ms(glsl), ratio(Optional.of(k), glsl), ms(torch), ratio(torch, Optional.of(k)),
            ceiling.map(c -> fixed(k.rate() / c.rate(), 2)).orElse("—"), k.figure().clockMhz());
      }
    }
  }

  /** (b): the fused chain against its arms dispatched separately, its GLSL twin and PyTorch. */
  private void chain() {
    header("| n | Kiln fused ms (p10–p90) | GB/s | separate ms | separate / fused | GLSL vec4 ms | fused / GLSL"
        + " (time) | torch eager ms | torch.compile ms | torch.compile / fused | SM MHz |");
    for (long n : sizes("chain")) {
      Optional<Results.Row> fused = row("chain", "Kiln fused", n);
      if (fused.isEmpty()) {
        continue;
      }
      Optional<Results.Row> separate = row("chain", "Kiln separate", n);
      Optional<Results.Row> compiled = row("chain", "torch.compile", n);
      print("| %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %d |", size("chain", n), withSpread(fused.get()),
          fused.get().rate(), ms(separate), ratio(separate, fused), ms(row("chain", "GLSL vec4", n)),
          ratio(fused, row("chain", "GLSL vec4", n)), ms(row("chain", "torch eager", n)), ms(compiled),
          ratio(compiled, fused), fused.get().figure().clockMhz());
    }
  }

  /** (c): the workgroup workloads against their GLSL twins, unchecked Kiln and PyTorch. */
  private void workgroups() {
    Map<String, String> torchVariants = new LinkedHashMap<>();
    torchVariants.put("sum", "torch");
    torchVariants.put("scan", null);
    torchVariants.put("histogram", "torch bincount");
    torchVariants.put("stencil", "torch.compile");
    torchVariants.put("sgemm", "torch.mm (cuBLAS)");
    header("| workload | n | Kiln ms (p10–p90) | rate | Kiln unchecked ms | GLSL ms | Kiln / GLSL"
        + " | unchecked / GLSL | PyTorch | PyTorch ms | PyTorch / Kiln | SM MHz |");
    torchVariants.forEach((workload, torchVariant) -> {
      for (long n : sizes(workload)) {
        Optional<Results.Row> kiln = row(workload, "Kiln", n);
        if (kiln.isEmpty()) {
          continue;
        }
        Results.Row k = kiln.get();
        Optional<Results.Row> unchecked = row(workload, "Kiln unchecked", n);
        Optional<Results.Row> glsl = row(workload, "GLSL", n);
        Optional<Results.Row> torch = torchVariant == null ? Optional.empty() : row(workload, torchVariant, n);
        print("| %s | %s | %s | %.0f G%s | %s | %s | %s | %s | %s | %s | %s | %d |", workload, size(workload, n),
            withSpread(k), k.rate(), k.unit(), ms(unchecked), ms(glsl), ratio(kiln, glsl), ratio(unchecked, glsl),
            torchVariant == null ? "—" : torchVariant, ms(torch), ratio(torch, kiln), k.figure().clockMhz());
      }
    });
  }

  /** (d): each launch operation's medians, every run of the raw loop and of Kiln. */
  private static void launch(Path csv) throws IOException {
    if (!Files.exists(csv)) {
      return;
    }
    Map<String, Map<String, List<String>>> figures = new LinkedHashMap<>(); // operation → implementation → runs
    Files.readAllLines(csv).stream().skip(1).filter(line -> !line.isBlank()).forEach(line -> {
      String[] f = line.split(",");
      figures.computeIfAbsent(f[1], o -> new LinkedHashMap<>()).computeIfAbsent(f[0], i -> new ArrayList<>())
          .add(fixed(Double.parseDouble(f[2]), 2));
    });
    header("| operation (µs) | raw LWJGL | Kiln |");
    figures.forEach((operation, byImplementation) -> print("| %s | %s | %s |", operation,
        String.join(", ", byImplementation.getOrDefault("raw", List.of("—"))),
        String.join(", ", byImplementation.getOrDefault("kiln", List.of("—")))));
  }

  private static void print(String format, Object... args) {
    System.out.println(String.format(Locale.ROOT, format, args));
  }

  /** A table's header row and the row under it that makes it one; a blank line before. */
  private static void header(String row) {
    System.out.println();
    System.out.println(row);
    System.out.println(row.replaceAll("[^|]+", "---"));
  }

  /** {@code 2^k} for an element count, {@code n²} for a matrix side. */
  private static String size(String workload, long n) {
    int log = 63 - Long.numberOfLeadingZeros(n);
    return workload.equals("sgemm") ? n + "²" : n == 1L << log ? "2^" + log : Long.toString(n);
  }

  private static String withSpread(Results.Row row) {
    Measure.Figure f = row.figure();
    return String.format(Locale.ROOT, "%.4f (%.4f–%.4f)", f.medianMs(), f.lowMs(), f.highMs());
  }

  private static String ms(Optional<Results.Row> row) {
    return row.map(r -> fixed(r.figure().medianMs(), 4)).orElse("—");
  }

  /** {@code a}'s median time over {@code b}'s. */
  private static String ratio(Optional<Results.Row> a, Optional<Results.Row> b) {
    return a.isPresent() && b.isPresent() ? fixed(a.get().figure().medianMs() / b.get().figure().medianMs(), 3) : "—";
  }

  private static String fixed(double value, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", value);
  }
}
