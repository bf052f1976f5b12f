package dev.kiln.bench.host;

import dev.kiln.Device;

/**
 * One process's start-up, as {@link OpenToFirstResult} measures it: {@code Device.open()} and the
 * first launch of a 4096-element kernel on Java arrays. Run with {@code -Dkiln.startupTrace=true}
 * to see where the time goes; it prints the whole, from the JVM's start, last.
 *
 * <p>{@code java -Dkiln.startupTrace=true -cp ... dev.kiln.bench.host.StartupProbe}
 */
public final class StartupProbe {
  private StartupProbe() {}

  public static void main(String[] args) {
    long start = System.nanoTime();
    int[] data = new int[4096];
    try (Device device = Device.open()) {
      TinyKernels.increment(device, data.length, data);
      System.err.printf("open + first result: %.1f ms on %s (%d ms since the JVM started)%n",
          (System.nanoTime() - start) / 1e6, device.name(),
          java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
    }
    if (data[4095] != 1) {
      throw new AssertionError("the kernel did not run: " + data[4095]);
    }
  }
}
