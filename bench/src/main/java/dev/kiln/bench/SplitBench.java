package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.samples.PostProcessKernels;
import dev.kiln.samples.SaxpyKernels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Launches on Java arrays split across devices ({@link DeviceSet}), timed whole on the host (copies
 * in, dispatch, copies back), since that is what a split changes: the unsplit launch on the best
 * device; the same split over that device alone (the split's own overhead); split over the device
 * and the CPU backend by measured speed; and the CPU backend alone. Each variant first runs once
 * on fresh inputs and must give the unsplit launch's bits; then it runs for 1.5 s (the balance
 * settles meanwhile) and 20 more times, whose median and spread are reported.
 *
 * <p>Before them, at each size, a device array's upload and download of as many floats. On a host
 * with several GPUs ({@link Device#all()}), the launches also split over all of them.
 *
 * <p>{@code java -cp ... dev.kiln.bench.SplitBench <out dir> [log2 sizes...]} (default 22 24 26).
 * Writes {@code split.csv} (the work: the bytes the kernel reads and writes once) and prints where
 * the adaptive split ended.
 */
public final class SplitBench {
  private static final int RUNS = 20;

  private SplitBench() {}

  /** A workload: fresh arguments from a seed, and its launch on one device and on a set. */
  private record Workload(String name, int bytesPerId, java.util.function.IntFunction<Object[]> arguments,
      Launcher<Device> alone, Launcher<DeviceSet> split) {}

  @FunctionalInterface
  private interface Launcher<T> {
    void launch(T target, int n, Object[] args);
  }

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "bench-results");
    int[] logs = args.length > 1 ? Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray()
        : new int[] {22, 24, 26};
    Files.createDirectories(out);
    Results results = new Results();
    List<Workload> workloads = List.of(
        new Workload("saxpy", 12, n -> new Object[] {floats(n, 1), floats(n, 2)},
            (d, n, a) -> SaxpyKernels.saxpy(d, n, 1.5f, (float[]) a[0], (float[]) a[1]),
            (s, n, a) -> SaxpyKernels.saxpy(s, n, 1.5f, (float[]) a[0], (float[]) a[1])),
        new Workload("develop (4 fused arms)", 12, n -> new Object[] {floats(n, 3), new int[n]},
            (d, n, a) -> PostProcessKernels.develop(d, n, (float[]) a[0], 1.1f, 2f, (int[]) a[1]),
            (s, n, a) -> PostProcessKernels.develop(s, n, (float[]) a[0], 1.1f, 2f, (int[]) a[1])));
    List<Device> all = Device.all(); // every hardware GPU, best first (the CPU backend where there is none)
    Device gpu = all.getFirst();
    try (Device cpu = Device.open("cpu"); DeviceSet alone = DeviceSet.of(gpu); DeviceSet withCpu = DeviceSet.of(gpu, cpu);
        DeviceSet gpus = DeviceSet.of(all)) {
      System.out.printf("%s (%s), %d of them, and the CPU backend on %d cores%n", gpu.name(), gpu.backend(), all.size(),
          Runtime.getRuntime().availableProcessors());
      for (int log : logs) {
        int n = 1 << log;
        transfers(results, gpu, n);
        for (Workload workload : workloads) {
          Object[] expected = workload.arguments().apply(n);
          workload.alone().launch(gpu, n, expected);
          time(results, workload, n, "unsplit, " + gpu.backend(), expected, a -> workload.alone().launch(gpu, n, a));
          time(results, workload, n, "split over " + gpu.backend() + " alone", expected,
              a -> workload.split().launch(alone, n, a));
          time(results, workload, n, "split over " + gpu.backend() + " + cpu", expected,
              a -> workload.split().launch(withCpu, n, a));
          System.out.printf("  %s 2^%d: the split ended at %s%n", workload.name(), log, describe(withCpu));
          if (all.size() > 1) {
            time(results, workload, n, "split over " + all.size() + " GPUs", expected,
                a -> workload.split().launch(gpus, n, a));
            System.out.printf("  %s 2^%d: the split ended at %s%n", workload.name(), log, describe(gpus));
          }
          time(results, workload, n, "unsplit, cpu", expected, a -> workload.alone().launch(cpu, n, a));
        }
      }
    } finally {
      all.forEach(Device::close);
    }
    results.write(out.resolve("split.csv"));
  }

  private static void time(Results results, Workload workload, int n, String variant, Object[] expected,
      Consumer<Object[]> launch) {
    Object[] fresh = workload.arguments().apply(n);
    launch.accept(fresh);
    for (int i = 0; i < expected.length; i++) {
      if (!sameArrays(expected[i], fresh[i])) {
        throw new AssertionError(workload.name() + " " + variant + ": argument " + i + " differs from the unsplit run");
      }
    }
    Measure.Figure figure = Measure.wall(RUNS, () -> launch.accept(fresh));
    results.add(workload.name(), variant, n, (long) workload.bytesPerId() * n, figure);
  }

  /** A device array's upload and download of {@code n} floats, the bytes a second at the median time. */
  private static void transfers(Results results, Device device, int n) {
    float[] values = floats(n, 4);
    float[] back = new float[n];
    try (dev.kiln.FloatArray array = device.floats(n)) {
      array.upload(values);
      array.download(back);
      if (!Arrays.equals(values, back)) {
        throw new AssertionError("a download differs from the upload");
      }
      results.add("transfer", "upload, " + device.backend(), n, 4L * n, Measure.wall(RUNS, () -> array.upload(values)));
      results.add("transfer", "download, " + device.backend(), n, 4L * n, Measure.wall(RUNS, () -> array.download(back)));
    }
  }

  private static boolean sameArrays(Object a, Object b) {
    return switch (a) {
      case float[] f -> Arrays.equals(f, (float[]) b);
      case int[] i -> Arrays.equals(i, (int[]) b);
      default -> a.equals(b); // a boxed scalar
    };
  }

  private static String describe(DeviceSet set) {
    StringBuilder text = new StringBuilder();
    for (DeviceSet.Part part : set.lastSplit()) {
      text.append(text.isEmpty() ? "" : ", ").append(part.device().backend()).append(' ')
          .append(part.end() - part.first()).append(" ids in ").append(String.format("%.3f ms", part.nanos() / 1e6));
    }
    return text.toString();
  }

  private static float[] floats(int n, int seed) {
    Random random = new Random(seed);
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextFloat() * 4f - 1f;
    }
    return values;
  }
}
