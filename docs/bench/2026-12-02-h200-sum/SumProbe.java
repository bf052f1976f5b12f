package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.IntArray;
import dev.kiln.abi.KernelSpec;
import dev.kiln.internal.Dispatch;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Where the unchecked sum's 6 % against its GLSL twin went: times hand-edited copies of Kiln's module
 * ({@code variants/sumk?.spvasm}, from {@code Workgroups.sumUnchecked.spv} as of commit 5690c8b) as
 * twins. To run it: {@code spirv-as --target-env vulkan1.1} each variant into
 * {@code dev/kiln/bench/glsl/<name>.spv}, compile this file against the bench jar and the runtime, jar
 * the class with the modules, and put that jar first on the class path of the H200 check's pack
 * ({@code java -cp 'sumx.jar:extra/*:.gpu/lib/*' dev.kiln.bench.SumProbe}). The list below is the
 * last call's; the outputs {@code sumprobe*.txt} name theirs.
 */
public final class SumProbe {
  public static void main(String[] args) {
    List<String> variants = List.of("sumkA", "sumkK", "sumkN", "sumkO", "sumkP");
    try (Device device = Device.open()) {
      device.timeLaunches(true);
      for (int log : new int[] {26, 28}) {
        int n = 1 << log;
        int[] values = IntStream.range(0, n).map(i -> i * 0x9E3779B9).toArray();
        int expected = IntStream.of(values).sum();
        try (IntArray in = device.upload(values); IntArray total = device.ints(1)) {
          for (int round = 0; round < 2; round++) {
            time("Kiln unchecked", n, expected, total, () -> WorkgroupsKernels.sumUnchecked(device, n, in, total));
            time("GLSL", n, expected, total, () -> Dispatch.dispatch(device, GlslTwins.SUM, n, in, total));
            for (String variant : variants) {
              KernelSpec spec = GlslTwins.twin(variant, GlslTwins.SUM.params());
              time(variant, n, expected, total, () -> Dispatch.dispatch(device, spec, n, in, total));
            }
          }
        }
      }
    }
  }

  private static void time(String what, int n, int expected, IntArray total, Runnable launch) {
    total.upload(new int[1]);
    launch.run();
    if (total.toArray()[0] != expected) {
      throw new AssertionError(what + ": sum " + total.toArray()[0] + ", Java gives " + expected);
    }
    Measure.Figure figure = Measure.gpu(() -> {
      launch.run();
      return Device.lastDeviceNanos();
    });
    System.out.printf("sum %-16s n=2^%d %.5f ms (p10 %.5f, p90 %.5f) SM %d MHz%n", what, Integer.numberOfTrailingZeros(n),
        figure.medianMs(), figure.lowMs(), figure.highMs(), figure.clockMhz());
  }
}
