package com.example.modular;

import dev.kiln.Device;
import java.util.Arrays;

/**
 * Runs the kernels on the device {@code args[0]} names (default: the best one) and exits with 1 if a
 * result differs from plain Java's. Run as a module: {@code java -p <module path> -m
 * com.example.modular/com.example.modular.Main}.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    String selector = args.length > 0 ? args[0] : "";
    try (Device device = Device.open(selector)) {
      int[] in = new int[1000];
      Arrays.setAll(in, i -> i * 7 % 13);
      int[] sums = new int[in.length];
      FiltersKernels.groupSums(device, in.length, in, sums);
      for (int i = 0; i < in.length; i++) {
        int first = i / 64 * 64;
        int expected = Arrays.stream(in, first, Math.min(first + 64, in.length)).sum();
        if (sums[i] != expected) {
          System.err.println("groupSums[" + i + "] = " + sums[i] + ", expected " + expected);
          System.exit(1);
        }
      }
      System.out.println("module " + Main.class.getModule().getName() + " ran groupSums on " + device.name() + " ("
          + device.backend() + ") with Kiln's module " + Device.class.getModule().getName());
    }
  }
}
