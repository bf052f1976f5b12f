package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import java.lang.invoke.MethodHandles;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a device set refuses before any device runs: an empty set, shares that do not fit it, device
 * arrays, and a kernel without a module (split launches that run: the samples' {@code
 * SplitLaunchTest}).
 */
class DeviceSetTest {
  private static final KernelSpec COPY =
      new KernelSpec(
          MethodHandles.lookup(),
          DeviceSetTest.class,
          "copy",
          "none.spv",
          new int[] {64, 1, 1},
          List.of(KernelSpec.Param.buffer("out", NumericType.FLOAT, Access.WRITE)),
          args -> {});

  @Test
  void anEmptySetIsRefused() {
    IllegalArgumentException thrown =
        assertThrows(IllegalArgumentException.class, () -> DeviceSet.of(List.of()));
    assertEquals("a device set needs at least one device", thrown.getMessage());
  }

  @Test
  void sharesMustFitTheDevices() {
    try (Device cpu = Device.open("cpu");
        DeviceSet set = DeviceSet.of(cpu, cpu)) {
      assertEquals(
          "2 devices take 2 shares, got 1",
          assertThrows(IllegalArgumentException.class, () -> set.withShares(1)).getMessage());
      assertEquals(
          "shares must be at least 0 and not all 0: [1.0, -1.0]",
          assertThrows(IllegalArgumentException.class, () -> set.withShares(1, -1)).getMessage());
      assertEquals(
          "shares must be at least 0 and not all 0: [0.0, 0.0]",
          assertThrows(IllegalArgumentException.class, () -> set.withShares(0, 0)).getMessage());
      assertEquals(
          "shares must be at least 0 and not all 0: [NaN, 1.0]",
          assertThrows(IllegalArgumentException.class, () -> set.withShares(Double.NaN, 1))
              .getMessage());
    }
  }

  @Test
  void deviceArraysAndKernelsWithoutAModuleAreRefused() {
    try (Device cpu = Device.open("cpu");
        DeviceSet set = DeviceSet.of(cpu);
        FloatArray out = cpu.floats(10)) {
      IllegalArgumentException array =
          assertThrows(IllegalArgumentException.class, () -> set.run(COPY, 10, new Object[] {out}));
      assertEquals(
          "dev.kiln.DeviceSetTest#copy: argument 'out' must be a Java array: a split launch copies each"
              + " device's part to it",
          array.getMessage());
      IllegalArgumentException noModule =
          assertThrows(
              IllegalArgumentException.class,
              () -> set.run(COPY, 10, new Object[] {new float[10]}));
      assertEquals(
          "dev.kiln.DeviceSetTest#copy cannot run split across devices: it has no module (the Kiln processor"
              + " did not compile it). Fix: run it on one device (its launcher's method that takes a Device)",
          noModule.getMessage());
    }
  }
}
