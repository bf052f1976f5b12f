package dev.kiln.bench.host;

import dev.kiln.Device;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Device memory that arrays dropped unclosed hold: allocates 120 float arrays of 16 MB on the best
 * device, drops them, collects garbage, and prints the device's memory in use as {@code nvidia-smi}
 * reports it at each step (and {@code Device.memory()} where the runtime has it). Against the
 * landed runtime of 2026-12-01 (no cleaner freeing), the memory stayed until the device closed.
 *
 * <p>{@code java -cp ... dev.kiln.bench.host.DroppedArrays}
 */
public final class DroppedArrays {
  private static final int ARRAYS = 120;
  private static final int FLOATS = 4 << 20;

  private DroppedArrays() {}

  public static void main(String[] args) throws Exception {
    try (Device device = Device.open()) {
      System.out.printf("%s: %s%n", device.name(), report(device, "opened"));
      for (int i = 0; i < ARRAYS; i++) {
        device.floats(FLOATS); // dropped without close
      }
      System.out.println(report(device, "120 arrays of 16 MB allocated and dropped"));
      for (int round = 1; round <= 5; round++) {
        System.gc();
        Thread.sleep(200);
        System.out.println(report(device, "after System.gc() " + round));
      }
    }
  }

  private static String report(Device device, String step) throws IOException, InterruptedException {
    String memory;
    try { // the runtime of this session; the landed one has no Device.memory()
      memory = String.valueOf(Device.class.getMethod("memory").invoke(device));
    } catch (ReflectiveOperationException e) {
      memory = "no Device.memory()";
    }
    return step + ": nvidia-smi " + nvidiaSmi() + "; " + memory;
  }

  private static String nvidiaSmi() throws IOException, InterruptedException {
    try {
      Process smi = new ProcessBuilder("nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader")
          .redirectErrorStream(true).start();
      String used = new String(smi.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      smi.waitFor();
      return used;
    } catch (IOException e) {
      return "(none here)";
    }
  }
}
