package dev.kiln.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.IntArray;
import org.junit.jupiter.api.Test;

/**
 * Where several invocations fault, the exception is the lowest faulting invocation's, as Java's
 * loop over the invocations throws it: on Vulkan (every faulting invocation records its place; the
 * lowest wins), on the CPU twins and kernel methods (whose threads run parts side by side), in
 * batches and split launches, launch after launch.
 */
class FaultOrderTest extends BothDevices {
  private static final int LENGTH = 40_000;
  private static final int COUNT = 100_003;
  /**
   * Reads before the low invocation divides by zero, so that it faults after invocations above it
   * have: on Vulkan below lavapipe's 65,535 loop turns, on the CPU long enough for other threads to
   * reach the faults above.
   */
  private static final int SPIN = 60_000;
  private static final int CPU_SPIN = 20_000_000;
  private static final int[] ZEROS = new int[1024];

  @Test
  void aLowDivisionByZeroWinsOverManyIndexFaultsAbove() {
    throwsOnEveryDevice(ArithmeticException.class, 5, true, "/ by zero");
  }

  @Test
  void theLowestOfManyIndexFaultsWinsOverADivisionAbove() {
    throwsOnEveryDevice(ArrayIndexOutOfBoundsException.class, 90_000, false, "Index 40000 out of bounds for length 40000");
  }

  /**
   * Five launches on each device, invocation {@code zeroAt} dividing by zero (after its reads where
   * {@code slow}), throw {@code type}
   * with a message that starts with {@code message} (or the kernel methods' words for a hot fault,
   * whose details the JVM dropped).
   */
  private static void throwsOnEveryDevice(Class<? extends RuntimeException> type, int zeroAt, boolean slow,
      String message) {
    for (Device device : new Device[] {cpu, cpuMethods, vulkan}) {
      for (int launch = 0; launch < 5; launch++) {
        int[] out = new int[LENGTH];
        RuntimeException thrown = assertThrows(type, () -> FaultOrderKernelsKernels.twoFaults(device, COUNT, out, ZEROS,
            zeroAt, !slow ? 0 : device == vulkan ? SPIN : CPU_SPIN), device + ", launch " + launch);
        assertTrue(thrown.getMessage() == null || thrown.getMessage().startsWith(message)
            || thrown.getMessage().contains("the JVM threw this fault often enough"), thrown.getMessage());
      }
    }
  }

  @Test
  void batchesAndSplitLaunchesThrowTheLowestFaultToo() {
    for (Device device : new Device[] {cpu, vulkan}) {
      try (IntArray out = device.ints(LENGTH); Batch batch = device.batch()) {
        try (IntArray zeros = device.upload(ZEROS)) {
          FaultOrderKernelsKernels.twoFaults(batch, COUNT, out, zeros, 7, device == vulkan ? SPIN : CPU_SPIN);
          ArithmeticException thrown = assertThrows(ArithmeticException.class, batch::submit, device.toString());
          assertTrue(thrown.getMessage().startsWith("/ by zero"), thrown.getMessage());
        }
      }
    }
    try (DeviceSet both = DeviceSet.of(vulkan, cpu)) {
      int[] out = new int[LENGTH];
      ArithmeticException thrown = assertThrows(ArithmeticException.class,
          () -> FaultOrderKernelsKernels.twoFaults(both, COUNT, out, ZEROS, 5, SPIN));
      assertEquals(ArithmeticException.class, thrown.getClass());
    }
  }
}
