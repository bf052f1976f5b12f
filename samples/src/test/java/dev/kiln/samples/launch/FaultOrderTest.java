package dev.kiln.samples.launch;

import dev.kiln.samples.testing.BothDevices;
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
 * batches and split launches, launch after launch. Java runs a batch's launches and a fused group's
 * arms one after the other, so there the first faulting launch's or arm's fault comes first, however
 * low the invocations of later ones that fault.
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
        assertStartsWith(message, thrown);
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

  /** A batch's first faulting launch throws, though a later one faults at a lower invocation. */
  @Test
  void aBatchThrowsItsFirstFaultingLaunchsFault() {
    for (Device device : new Device[] {cpu, vulkan}) {
      try (IntArray out = device.ints(LENGTH); IntArray zeros = device.upload(ZEROS)) {
        try (Batch batch = device.batch()) {
          FaultOrderKernelsKernels.twoFaults(batch, COUNT, out, zeros, -1, 0); // index faults from invocation 40,000
          FaultOrderKernelsKernels.twoFaults(batch, 100, out, zeros, 5, 0); // a division by zero at invocation 5
          ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, batch::submit,
              device.toString());
          assertTrue(thrown.getMessage().startsWith("Index 40000 out of bounds"), thrown.getMessage());
        }
        try (Batch batch = device.batch()) {
          FaultOrderKernelsKernels.twoFaults(batch, 100, out, zeros, 5, 0);
          FaultOrderKernelsKernels.twoFaults(batch, COUNT, out, zeros, -1, 0);
          ArithmeticException thrown = assertThrows(ArithmeticException.class, batch::submit, device.toString());
          assertEquals(device == vulkan ? "/ by zero in kernel dev.kiln.samples.launch.FaultOrderKernels#twoFaults"
              + " (launch 1 of 2 in a batch) (line 28)" : "/ by zero in kernel dev.kiln.samples.launch.FaultOrderKernels#twoFaults",
              thrown.getMessage());
        }
      }
    }
  }

  /**
   * A batch's launches of one kernel on the same arguments differ only in their fault regions (the
   * recorder pushes that word alone): the third of four faults, and the message names it.
   */
  @Test
  void aBatchNamesWhichOfItsLikeLaunchesFaulted() {
    try (IntArray counter = vulkan.ints(1); IntArray out = vulkan.ints(8); Batch batch = vulkan.batch()) {
      for (int launch = 0; launch < 4; launch++) {
        FaultOrderKernelsKernels.faultOnThird(batch, 1, counter, out);
      }
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, batch::submit);
      assertEquals("Index 8 out of bounds in kernel dev.kiln.samples.launch.FaultOrderKernels#faultOnThird"
          + " (launch 3 of 4 in a batch) (line 61)", thrown.getMessage());
    }
  }

  /**
   * In a batch of more launches than one fault buffer has regions for, the first faulting launch
   * still throws; and a second batch on the same command buffer, whose regions the first dirtied,
   * still sees its fault.
   */
  @Test
  void aLongBatchThrowsItsFirstFaultingLaunchsFaultEveryTime() {
    try (IntArray out = vulkan.ints(LENGTH); IntArray zeros = vulkan.upload(ZEROS)) {
      for (int round = 0; round < 2; round++) {
        try (Batch batch = vulkan.batch()) {
          for (int launch = 0; launch < 1_100; launch++) {
            switch (launch) {
              case 1_050 -> FaultOrderKernelsKernels.twoFaults(batch, COUNT, out, zeros, -1, 0);
              case 1_060 -> FaultOrderKernelsKernels.twoFaults(batch, 100, out, zeros, 5, 0);
              default -> FaultOrderKernelsKernels.twoFaults(batch, 64, out, zeros, -1, 0);
            }
          }
          ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, batch::submit);
          assertEquals("Index 40000 out of bounds in kernel dev.kiln.samples.launch.FaultOrderKernels#twoFaults"
              + " (launch 1051 of 1100 in a batch) (line 28)", thrown.getMessage(), "round " + round);
        }
      }
    }
  }

  /**
   * A fused group throws its first arm's fault, though its second arm faults from a lower
   * invocation on (and so before the first arm's fault in every part of the launch): on Vulkan, on
   * the CPU in both of a group's forms (the fused twin for its first launches, the tiled arms once
   * clean launches have timed the fused form), on the kernel methods, and split across devices (the
   * first arm faulting in the second device's part only).
   */
  @Test
  void aFusedGroupThrowsItsFirstFaultingArmsFault() {
    for (Device device : new Device[] {cpu, cpuMethods, vulkan}) {
      for (int launch = 0; launch < 8; launch++) {
        if (launch == 4) { // five launches without a fault make the CPU backend's next ones run the tiled arms
          for (int clean = 0; clean < 5; clean++) {
            FaultOrderKernelsKernels.twoArms(device, COUNT, new int[COUNT], new int[COUNT], COUNT);
          }
        }
        int[] out = new int[LENGTH];
        int[] quotients = new int[COUNT];
        ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
            () -> FaultOrderKernelsKernels.twoArms(device, COUNT, out, quotients, 5), device + ", launch " + launch);
        assertStartsWith("Index 40000 out of bounds for length 40000", thrown);
      }
    }
    int[] quotients = new int[COUNT];
    for (int launch = 0; launch < 4; launch++) {
      try (DeviceSet both = DeviceSet.of(vulkan, cpu); DeviceSet reversed = DeviceSet.of(cpu, vulkan)) {
        for (DeviceSet set : new DeviceSet[] {both, reversed}) {
          int[] out = new int[70_000]; // past the first part: the first arm faults in the second device's part only
          ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
              () -> FaultOrderKernelsKernels.twoArms(set, COUNT, out, quotients, 5), set + ", launch " + launch);
          assertStartsWith("Index 70000 out of bounds for length 70000", thrown);
        }
      }
    }
  }

  /**
   * {@code thrown}'s message starts with {@code message}, or is the kernel methods' words for a hot
   * fault, whose details the JVM dropped.
   */
  private static void assertStartsWith(String message, RuntimeException thrown) {
    assertTrue(thrown.getMessage() == null || thrown.getMessage().startsWith(message)
        || thrown.getMessage().contains("the JVM threw this fault often enough"), thrown.getMessage());
  }
}
