package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.internal.Dispatch;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** The device API and the CPU backend, with kernels written by hand (no processor, no Vulkan). */
class DeviceTest {
  /** A kernel that counts how often each global id runs: {@code hits[globalId]++}. */
  private static KernelSpec counting(AtomicIntegerArray hits, int workgroup) {
    return new KernelSpec(
        MethodHandles.lookup(),
        DeviceTest.class,
        "counting",
        "none.spv",
        new int[] {workgroup, 1, 1},
        List.of(KernelSpec.Param.buffer("ignored", NumericType.INT, Access.READ)),
        args -> hits.incrementAndGet(Gpu.globalId(0)));
  }

  /**
   * The best device is a hardware GPU where the Vulkan loader lists one, else the CPU backend: a
   * machine with only software Vulkan (lavapipe, as in CI) gets the CPU backend, and gets lavapipe
   * when it names it.
   */
  @Test
  void theBestDeviceIsAHardwareGpuElseTheCpuBackend() throws Exception {
    List<String> vulkan;
    try {
      vulkan = dev.kiln.vulkan.VulkanBackend.describeDevices();
    } catch (dev.kiln.vulkan.VulkanUnavailableException e) {
      vulkan = List.of();
    }
    boolean hardware = vulkan.stream().anyMatch(line -> line.contains("[the default"));
    try (Device best = Device.open("")) {
      assertEquals(hardware ? "vulkan" : "cpu", best.backend(), String.join("\n", vulkan));
    }
    for (String entry : vulkan) {
      String first = entry.lines().findFirst().orElseThrow();
      // a line naming the device, then its limits, one group of facts a line (was one line of 600
      // characters)
      assertTrue(
          entry.lines().count() == 5
              && entry.lines().skip(1).allMatch(line -> line.length() <= 120),
          entry);
      // the float controls' line in full: what Java-exact kernels ask of the driver
      assertTrue(
          entry
              .lines()
              .skip(3)
              .findFirst()
              .orElseThrow()
              .matches(
                  "    64-bit ints (yes|no), floats (yes|no); signed zero, Inf and NaN kept"
                      + " (yes|no); subnormals kept: float (yes|no), double (yes|no), float16"
                      + " (yes|no)"),
          entry);
      if (first.contains("CPU (software)")) {
        assertTrue(
            first.endsWith(" [only when named: software Vulkan runs slower than the CPU backend]"),
            entry);
      }
    }
    if (!hardware && vulkan.stream().anyMatch(line -> line.contains("CPU (software)"))) {
      String software = vulkan.getFirst().substring(0, vulkan.getFirst().indexOf(": "));
      dev.kiln.vulkan.VulkanUnavailableException refused =
          org.junit.jupiter.api.Assertions.assertThrows(
              dev.kiln.vulkan.VulkanUnavailableException.class,
              () -> dev.kiln.vulkan.VulkanBackend.openHardware(0, false));
      assertEquals(
          "only software Vulkan ("
              + software
              + "), slower than the CPU backend; name it to use it"
              + " (-Dkiln.device=vulkan)",
          refused.getMessage());
      try (Device named = Device.open("vulkan")) {
        assertEquals("vulkan", named.backend());
      }
    }
  }

  /** Vulkan's listing here, best first; none without a loader. */
  private static List<String> vulkanListing() {
    try {
      return dev.kiln.vulkan.VulkanBackend.describeDevices();
    } catch (dev.kiln.vulkan.VulkanUnavailableException e) {
      return List.of();
    }
  }

  /**
   * {@code Device.all()} opens each hardware GPU the listing has, best first, or the CPU backend
   * alone where it has none (lavapipe, as in CI, is not a GPU); the devices' names differ in their
   * numbers even where their drivers' names are the same.
   */
  @Test
  void allOpensEveryHardwareGpuElseTheCpuBackend() {
    List<String> vulkan = vulkanListing();
    long gpus =
        vulkan.stream()
            .filter(entry -> !entry.lines().findFirst().orElseThrow().contains("CPU (software)"))
            .count();
    List<Device> all = Device.all();
    try {
      assertEquals(Math.max(1, gpus), all.size(), String.join("\n", vulkan));
      assertTrue(
          all.stream().allMatch(device -> device.backend().equals(gpus == 0 ? "cpu" : "vulkan")),
          all::toString);
      assertEquals(
          all.size(), all.stream().map(Device::toString).distinct().count(), all::toString);
    } finally {
      all.forEach(Device::close);
    }
  }

  /**
   * {@code #n} after a selector takes the device of rank n among those it names; a rank past them
   * is refused with how many there are, and {@code "#n"} alone ranks hardware GPUs only.
   */
  @Test
  void aRankPicksAmongTheNamedDevices() {
    List<String> vulkan = vulkanListing();
    if (!vulkan.isEmpty()) {
      try (Device first = Device.open("vulkan#0")) {
        assertEquals("vulkan", first.backend());
        assertEquals(vulkan.getFirst().substring(0, vulkan.getFirst().indexOf(": ")), first.name());
      }
    }
    int past = vulkan.size();
    IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> Device.open("vulkan#" + past));
    if (!vulkan.isEmpty()) {
      assertEquals(
          "kiln.device=vulkan#"
              + past
              + ": device #"
              + past
              + " was asked for, but "
              + past
              + (past == 1 ? " Vulkan device matches" : " Vulkan devices match")
              + " (#0 is the first)",
          refused.getMessage());
    }
    long gpus =
        vulkan.stream()
            .filter(entry -> !entry.lines().findFirst().orElseThrow().contains("CPU (software)"))
            .count();
    if (gpus
        == 0) { // "#0" is the best hardware GPU, which is not here: no fall back to the CPU backend
      assertThrows(IllegalStateException.class, () -> Device.open("#0"));
    }
  }

  /**
   * A launch refuses an array of another device, naming both, even two devices of the same name.
   */
  @Test
  void anArrayOfAnotherDeviceIsRefusedNamingBoth() {
    KernelSpec copy =
        new KernelSpec(
            MethodHandles.lookup(),
            DeviceTest.class,
            "copy",
            "none.spv",
            new int[] {4, 1, 1},
            List.of(KernelSpec.Param.buffer("out", NumericType.INT, Access.WRITE)),
            args -> {});
    try (Device one = Device.open("cpu");
        Device other = Device.open("cpu")) {
      IntArray ints = one.ints(4);
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class, () -> Dispatch.dispatch(other, copy, 4, ints));
      assertEquals(
          copy
              + ": argument 'out' is an array of "
              + one
              + ", and this launch runs on "
              + other
              + ": copy it to this device first (toArray() there, upload(...) here)",
          refused.getMessage());
      assertTrue(
          !one.toString().equals(other.toString()) && one.name().equals(other.name()),
          one + " " + other);
    }
  }

  @Test
  void cpuBackendRunsEachInvocationBelowTheCountOnce() {
    try (Device device = Device.open("cpu")) {
      for (int count : new int[] {0, 1, 63, 64, 65, 1000}) {
        AtomicIntegerArray hits = new AtomicIntegerArray(1100);
        Dispatch.run(device, counting(hits, 64), count, new int[1]);
        for (int i = 0; i < hits.length(); i++) {
          assertEquals(i < count ? 1 : 0, hits.get(i), "count " + count + ", id " + i);
        }
      }
    }
  }

  @Test
  void idsAreThoseOfTheInvocation() {
    KernelSpec ids =
        new KernelSpec(
            MethodHandles.lookup(),
            DeviceTest.class,
            "ids",
            "none.spv",
            new int[] {4, 1, 1},
            List.of(KernelSpec.Param.buffer("out", NumericType.INT, Access.WRITE)),
            args -> {
              int i = Gpu.globalId(0);
              ((int[]) args[0])[i] =
                  Gpu.workgroupId(0) * 100 + Gpu.localId(0) * 10 + Gpu.numWorkgroups(0);
            });
    int[] out = new int[6];
    try (Device device = Device.open("cpu")) {
      Dispatch.run(device, ids, 6, (Object) out);
    }
    assertArrayEquals(new int[] {2, 12, 22, 32, 102, 112}, out);
  }

  @Test
  void intrinsicsOutsideAKernelThrow() {
    assertThrows(IllegalStateException.class, () -> Gpu.globalId(0));
  }

  @Test
  void arraysRoundTripAndCloseTwice() {
    try (Device device = Device.open("cpu")) {
      FloatArray floats = device.upload(new float[] {1f, -0f, Float.NaN});
      assertEquals(3, floats.length());
      assertArrayEquals(new float[] {1f, -0f, Float.NaN}, floats.toArray());
      floats.close();
      floats.close();
      assertThrows(IllegalStateException.class, floats::toArray);
      IntArray ints = device.ints(2);
      assertArrayEquals(new int[2], ints.toArray());
      assertThrows(IllegalArgumentException.class, () -> ints.upload(new int[3]));
    }
  }

  @Test
  void useAfterCloseThrowsAndCloseTwiceIsHarmless() {
    Device device = Device.open("cpu");
    IntArray ints = device.ints(4);
    device.close();
    device.close();
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> device.ints(1));
    assertTrue(thrown.getMessage().contains("closed"), thrown.getMessage());
    assertThrows(IllegalStateException.class, ints::toArray);
    ints.close();
  }

  @Test
  void argumentsAreCheckedAgainstTheKernel() {
    KernelSpec spec = counting(new AtomicIntegerArray(1), 64);
    try (Device device = Device.open("cpu");
        Device other = Device.open("cpu")) {
      assertThrows(IllegalArgumentException.class, () -> Dispatch.run(device, spec, 1));
      assertThrows(
          IllegalArgumentException.class,
          () -> Dispatch.run(device, spec, 1, (Object) new float[1]));
      assertThrows(
          IllegalArgumentException.class,
          () -> Dispatch.run(device, spec, -1, (Object) new int[1]));
      try (IntArray foreign = other.ints(1)) {
        assertThrows(
            IllegalArgumentException.class, () -> Dispatch.dispatch(device, spec, 1, foreign));
      }
    }
  }

  @Test
  void subRangesAreCheckedAndCopied() {
    try (Device device = Device.open("cpu");
        FloatArray array = device.floats(5)) {
      array.upload(new float[] {9f, 8f, 7f}, 1, 3, 2);
      assertArrayEquals(new float[] {0f, 0f, 0f, 8f, 7f}, array.toArray());
      float[] part = new float[3];
      array.download(part, 0, 2, 3);
      assertArrayEquals(new float[] {0f, 8f, 7f}, part);
      assertThrows(IndexOutOfBoundsException.class, () -> array.upload(new float[3], 0, 4, 2));
      assertThrows(IndexOutOfBoundsException.class, () -> array.download(new float[3], 2, 0, 2));
    }
  }

  /** The CPU backend has no recorders or native buffers; its open batches are counted. */
  @Test
  void resourcesCountTheOpenBatches() {
    try (Device device = Device.open("cpu")) {
      assertEquals(new DeviceResources(0, 0, 0), device.resources());
      Batch open = device.batch();
      try (Batch other = device.batch()) {
        assertEquals(new DeviceResources(0, 2, 0), device.resources());
      }
      open.close();
      open.close();
      assertEquals(new DeviceResources(0, 0, 0), device.resources());
    }
  }
}
