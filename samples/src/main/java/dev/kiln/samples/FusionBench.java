package dev.kiln.samples;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;

/**
 * Fused against unfused, side by side: the group {@code develop} of {@link PostProcess} (four
 * elementwise arms) as one dispatch, and its four kernels as four dispatches, over the same buffers.
 * GPU time per launch from timestamps ({@link Device#lastDeviceNanos()}; the unfused figure is the
 * sum of its four launches), median of the runs, after at least two seconds of warm-up right before
 * each measurement (GPU clocks fall within a second of idling).
 *
 * <p>{@code java -cp ... dev.kiln.samples.FusionBench [elements] [runs]}
 */
public final class FusionBench {
  private FusionBench() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 26;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    try (Device device = Device.open(); FloatArray pixels = device.floats(n); IntArray bytes = device.ints(n)) {
      device.timeLaunches(true);
      System.out.printf("%s (%s), %d elements, median of %d runs, GPU time%n", device.name(), device.backend(), n,
          runs);
      long fused = GpuTimes.median(runs, () -> {
        PostProcessKernels.develop(device, n, pixels, 1.01f, 2.5f, bytes);
        return Device.lastDeviceNanos();
      });
      long unfused = GpuTimes.median(runs, () -> {
        PostProcessKernels.exposure(device, n, pixels, 1.01f);
        long sum = Device.lastDeviceNanos();
        PostProcessKernels.toneCurve(device, n, pixels, 2.5f);
        sum += Device.lastDeviceNanos();
        PostProcessKernels.clamp(device, n, pixels);
        sum += Device.lastDeviceNanos();
        PostProcessKernels.quantize(device, n, pixels, bytes);
        return sum + Device.lastDeviceNanos();
      });
      // fused: one read and one write of 4 bytes per element each for pixels and bytes
      double fusedBytes = (double) n * (4 + 4 + 4);
      System.out.printf("develop fused    %8.3f ms  %7.1f GB/s%n", fused / 1e6, fusedBytes / fused);
      System.out.printf("develop unfused  %8.3f ms  (4 dispatches)%n", unfused / 1e6);
      System.out.printf("unfused / fused  %8.2f%n", unfused / (double) fused);
    }
  }

}
