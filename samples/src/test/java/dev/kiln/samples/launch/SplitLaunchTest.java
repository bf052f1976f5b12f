package dev.kiln.samples.launch;

import dev.kiln.samples.HistogramKernels;
import dev.kiln.samples.PostProcessKernels;
import dev.kiln.samples.SaxpyKernels;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.TestDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.samples.semantics.BufferAliasKernelsKernels;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Launches split across devices ({@link DeviceSet}): the CPU backend twice (two logical devices),
 * Vulkan with the CPU backend, and Vulkan twice on one physical device. Each split's arrays must
 * equal, bit for bit, one device's run of the same launch, at sizes that are not multiples of the
 * workgroups, in every proportion.
 */
class SplitLaunchTest {
  private static final int[] SIZES = {1, 63, 1000, 4097, 100_003};
  private static final double[][] SHARES = {{1, 1}, {1, 3}, {5, 1}, {0, 1}, {1, 0}};

  private static Device cpu;
  private static Device otherCpu;
  private static Device vulkan;
  private static Device otherVulkan;

  @BeforeAll
  static void openDevices() {
    cpu = Device.open("cpu");
    otherCpu = Device.open("cpu");
  }

  @AfterAll
  static void closeDevices() {
    for (Device device : new Device[] {cpu, otherCpu, vulkan, otherVulkan}) {
      if (device != null) {
        device.close();
      }
    }
  }

  /** The Vulkan device, opened on first use: the CPU-only tests run without one. */
  private static Device vulkan() {
    if (vulkan == null) {
      vulkan = TestDevices.vulkan();
    }
    return vulkan;
  }

  /** Each kernel of the test, as a launch on one device and a launch split across a set. */
  private record Case(String name, Function<Random, Object[]> arguments, BiConsumer<Device, Object[]> alone,
      BiConsumer<DeviceSet, Object[]> split) {}

  private static List<Case> cases(int n) {
    List<Case> cases = new ArrayList<>();
    cases.add(new Case("neighbours", r -> new Object[] {Bits.randomFloats(r, n, 10f), new float[n]},
        (d, a) -> SplitKernelsKernels.neighbours(d, n, (float[]) a[0], (float[]) a[1]),
        (s, a) -> SplitKernelsKernels.neighbours(s, n, (float[]) a[0], (float[]) a[1])));
    cases.add(new Case("reverseRuns", r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> SplitKernelsKernels.reverseRuns(d, n, (int[]) a[0], (int[]) a[1]),
        (s, a) -> SplitKernelsKernels.reverseRuns(s, n, (int[]) a[0], (int[]) a[1])));
    cases.add(new Case("complexSquares", r -> new Object[] {Bits.randomFloats(r, 2 * n, 3f), new float[2 * n]},
        (d, a) -> SplitKernelsKernels.complexSquares(d, n, (float[]) a[0], (float[]) a[1], n),
        (s, a) -> SplitKernelsKernels.complexSquares(s, n, (float[]) a[0], (float[]) a[1], n)));
    cases.add(new Case("bytes", r -> new Object[] {Bits.randomFloats(r, n, 18f), randomBytes(r, n)},
        (d, a) -> SplitKernelsKernels.bytes(d, n, (float[]) a[0], (byte[]) a[1]),
        (s, a) -> SplitKernelsKernels.bytes(s, n, (float[]) a[0], (byte[]) a[1])));
    cases.add(new Case("saxpy (vectorized)", r -> new Object[] {Bits.randomFloats(r, n, 4f), Bits.randomFloats(r, n, 4f)},
        (d, a) -> SaxpyKernels.saxpy(d, n, 1.5f, (float[]) a[0], (float[]) a[1]),
        (s, a) -> SaxpyKernels.saxpy(s, n, 1.5f, (float[]) a[0], (float[]) a[1])));
    cases.add(new Case("chosen (through an array variable)",
        r -> new Object[] {Bits.randomFloats(r, n + 3, 4f), Bits.randomFloats(r, n / 2 + 1, 4f), new float[n]},
        (d, a) -> BufferAliasKernelsKernels.chosen(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]),
        (s, a) -> BufferAliasKernelsKernels.chosen(s, n, (float[]) a[0], (float[]) a[1], (float[]) a[2])));
    cases.add(new Case("develop (fused)", r -> new Object[] {Bits.randomFloats(r, n, 3f), new int[n]},
        (d, a) -> PostProcessKernels.develop(d, n, (float[]) a[0], 1.2f, 2f, (int[]) a[1]),
        (s, a) -> PostProcessKernels.develop(s, n, (float[]) a[0], 1.2f, 2f, (int[]) a[1])));
    return cases;
  }

  private static byte[] randomBytes(Random random, int n) {
    byte[] values = new byte[n];
    random.nextBytes(values);
    return values;
  }

  /** Runs every case alone on {@code reference} and split across {@code devices} in every proportion, and compares. */
  private static void assertSplitsMatch(Device reference, List<Device> devices, int[] sizes) {
    try (DeviceSet byPace = DeviceSet.of(devices)) {
      for (int n : sizes) {
        for (Case c : cases(n)) {
          Object[] expected = c.arguments().apply(new Random(n));
          c.alone().accept(reference, expected);
          List<DeviceSet> sets = new ArrayList<>(List.of(byPace));
          for (double[] shares : SHARES) {
            sets.add(byPace.withShares(shares));
          }
          for (DeviceSet set : sets) {
            Object[] actual = c.arguments().apply(new Random(n));
            c.split().accept(set, actual);
            for (int i = 0; i < expected.length; i++) {
              Bits.assertSameBits(c.name() + " argument " + i + " at n = " + n + " split as " + set.lastSplit(),
                  expected[i], actual[i]);
            }
            if (set != byPace) {
              set.close();
            }
          }
        }
      }
    }
  }

  @Test
  void splitAcrossTwoCpuDevicesEqualsOneDevice() {
    assertSplitsMatch(cpu, List.of(cpu, otherCpu), SIZES);
  }

  @Test
  void splitAcrossVulkanAndTheCpuBackendEqualsEither() {
    assertSplitsMatch(vulkan(), List.of(vulkan(), cpu), new int[] {1, 1000, 4097, 20_011});
    assertSplitsMatch(cpu, List.of(vulkan(), cpu), new int[] {4097});
  }

  @Test
  void splitAcrossTwoLogicalVulkanDevicesOfOnePhysicalEqualsOne() {
    vulkan();
    if (otherVulkan == null) {
      otherVulkan = TestDevices.vulkan();
    }
    assertSplitsMatch(vulkan(), List.of(vulkan(), otherVulkan), new int[] {1000, 20_011});
  }

  @Test
  void sharesSetTheRangesInWholeWorkgroups() {
    int n = 100_003;
    float[] x = new float[n];
    float[] y = new float[n];
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu, cpu).withShares(1, 2, 1)) {
      SaxpyKernels.saxpy(set, n, 2f, x, y);
      List<DeviceSet.Part> parts = set.lastSplit();
      assertEquals(3, parts.size(), parts.toString());
      int unit = 256 * 4; // saxpy's workgroup, 4 elements per invocation where vectorized
      assertEquals(0, parts.get(0).first());
      assertEquals(n, parts.get(2).end());
      for (int k = 0; k < 3; k++) {
        DeviceSet.Part part = parts.get(k);
        assertEquals(List.of(cpu, otherCpu, cpu).get(k), part.device());
        if (k > 0) {
          assertEquals(parts.get(k - 1).end(), part.first(), "ranges follow each other: " + parts);
        }
        assertEquals(0, part.first() % unit, "a range starts at a workgroup's first id: " + parts);
      }
      double[] expected = {0.25, 0.5, 0.25};
      for (int k = 0; k < 3; k++) {
        int length = parts.get(k).end() - parts.get(k).first();
        assertTrue(Math.abs(length - expected[k] * n) <= unit, "share " + expected[k] + " of " + n + ": " + parts);
      }
    }
  }

  @Test
  void kernelsThatWriteOtherIdsElementsAreRefusedNamingTheAccess() {
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu)) {
      IllegalArgumentException reversed = assertThrows(IllegalArgumentException.class,
          () -> SplitKernelsKernels.reverse(set, 10, new float[10], new float[10], 10));
      assertEquals("dev.kiln.samples.launch.SplitKernels#reverse cannot run split across devices: it writes buffer 'out' at"
          + " -1*globalId(0) + scalar n + -1 (line 71), not in the block of Gpu.globalId(0) (s * Gpu.globalId(0) + c,"
          + " 0 <= c < s, one s for every access): the devices' ranges of ids would meet in its elements. Fix: run it"
          + " on one device (its launcher's method that takes a Device)", reversed.getMessage());
      IllegalArgumentException histogram = assertThrows(IllegalArgumentException.class,
          () -> HistogramKernels.histogram(set, 10, new int[10], new int[4]));
      assertEquals("dev.kiln.samples.Histogram#histogram cannot run split across devices: it atomically updates buffer"
          + " 'bins' at an index not affine in the ids (line 19), not in the block of Gpu.globalId(0) (s * Gpu.globalId(0)"
          + " + c, 0 <= c < s, one s for every access): the devices' ranges of ids would meet in its elements. Fix: run it"
          + " on one device (its launcher's method that takes a Device)", histogram.getMessage());
    }
  }

  @Test
  void aFaultOnOneDeviceIsThrownAsOneDeviceThrowsItNamingTheDevice() {
    int n = 1000;
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu).withShares(1, 1)) {
      ArrayIndexOutOfBoundsException fault = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> SplitKernelsKernels.shifted(set, n, new float[n], new float[n], 1));
      ArrayIndexOutOfBoundsException alone = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> SplitKernelsKernels.shifted(cpu, n, new float[n], new float[n], 1));
      assertTrue(fault.getMessage().startsWith(alone.getMessage()), fault.getMessage() + " / " + alone.getMessage());
      assertTrue(fault.getMessage().endsWith(" (on " + otherCpu + ", which ran ids 512 to 999 of a split launch)"),
          fault.getMessage());
    }
  }

  @Test
  void eachBackendRunsOnlyItsRange() {
    int n = 1000; // the last id faults: only the device whose range holds it may throw
    for (List<Device> devices : List.of(List.of(vulkan(), cpu), List.of(cpu, vulkan()))) {
      try (DeviceSet set = DeviceSet.of(devices).withShares(1, 1)) {
        ArrayIndexOutOfBoundsException fault = assertThrows(ArrayIndexOutOfBoundsException.class,
            () -> SplitKernelsKernels.shifted(set, n, new float[n], new float[n], 1));
        assertTrue(fault.getMessage().endsWith(" (on " + devices.get(1) + ", which ran ids 512 to 999 of a split"
            + " launch)"), fault.getMessage());
        assertEquals(0, fault.getSuppressed().length, "one device faulted");
      }
    }
  }

  @Test
  void anArrayReadWholeAndWrittenInPartsIsRefused() {
    float[] a = new float[100];
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu)) {
      IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
          () -> SplitKernelsKernels.neighbours(set, 100, a, a));
      assertEquals("dev.kiln.samples.launch.SplitKernels#neighbours: one array is passed as 'in', which each device reads"
          + " beyond its own elements, and as 'out', which each device writes part of; split, the devices would read each other's"
          + " writes in an order no single device has. Fix: pass a copy as 'in', or run on one device",
          thrown.getMessage());
    }
  }

  @Test
  void aClosedSetRefusesLaunchesAndLeavesItsDevicesOpen() {
    DeviceSet set = DeviceSet.of(cpu, otherCpu);
    set.close();
    IllegalStateException closed = assertThrows(IllegalStateException.class,
        () -> SaxpyKernels.saxpy(set, 10, 1f, new float[10], new float[10]));
    assertEquals("this device set is closed", closed.getMessage());
    float[] y = new float[10];
    SaxpyKernels.saxpy(cpu, 10, 1f, new float[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, y);
    assertEquals(1f, y[9]);
  }
}
