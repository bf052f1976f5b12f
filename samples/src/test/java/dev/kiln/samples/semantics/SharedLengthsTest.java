package dev.kiln.samples.semantics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Workgroup arrays sized by an int parameter: Java's results for each length on both devices (on
 * Vulkan through one pipeline per length, used in turn), Java's exceptions for an index past the
 * launch's length and for a negative length, and on Vulkan a clear refusal of more workgroup memory
 * than the device has.
 */
class SharedLengthsTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}, tiles of {1}")
  @CsvSource({"1, 1", "200, 64", "200, 100", "1000, 37", "1000, 100", "300, 64"})
  void eachLaunchStagesChunksOfItsOwnLength(int n, int tile) {
    int groups = (n + tile - 1) / tile;
    compare("reverseChunks", n * 1000 + tile, r -> new Object[] {Bits.randomFloats(r, n, 4f), new float[n]},
        (d, a) -> SharedLengthKernelsKernels.reverseChunks(d, groups * SharedLengthKernels.GROUP, (float[]) a[0],
            (float[]) a[1], tile));
  }

  @Test
  void theLengthIsTheLaunchsAndAnIndexPastItIsJavasException() {
    for (Device device : new Device[] {cpuMethods, cpu, vulkan}) {
      int[] out = new int[2];
      SharedLengthKernelsKernels.readAt(device, 64, out, 5, 4);
      assertArrayEquals(new int[] {5, 12}, out, device.toString());
      SharedLengthKernelsKernels.readAt(device, 64, out, 100, 63);
      assertArrayEquals(new int[] {100, 189}, out, device.toString());
      for (int length : new int[] {0, 7}) {
        ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
            () -> SharedLengthKernelsKernels.readAt(device, 64, new int[2], length, length));
        assertTrue(thrown.getMessage().startsWith("Index " + length + " out of bounds for length " + length),
            device + ": " + thrown.getMessage());
      }
    }
  }

  @Test
  void aNegativeLengthThrowsBeforeTheKernelRuns() {
    for (Device device : new Device[] {cpuMethods, cpu, vulkan}) {
      int[] out = {7, 7};
      NegativeArraySizeException thrown = assertThrows(NegativeArraySizeException.class,
          () -> SharedLengthKernelsKernels.readAt(device, 64, out, -3, 0));
      assertEquals(device == vulkan ? "-3: the length of a workgroup array of kernel"
          + " dev.kiln.samples.semantics.SharedLengthKernels#readAt, parameter 'length' (checked before the launch;"
          + " nothing ran)" : "-3", thrown.getMessage(), device.toString());
      assertArrayEquals(new int[] {7, 7}, out, device.toString());
    }
  }

  @Test
  void moreWorkgroupMemoryThanTheDeviceHasIsRefusedAtLaunch() {
    int length = 1 << 20;
    int[] out = new int[2];
    SharedLengthKernelsKernels.readAt(cpu, 64, out, length, 1);
    assertArrayEquals(new int[] {length, 3}, out);
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
        () -> SharedLengthKernelsKernels.readAt(vulkan, 64, new int[2], length, 1));
    assertTrue(thrown.getMessage().startsWith("dev.kiln.samples.semantics.SharedLengthKernels#readAt: 4194304 bytes"
        + " of workgroup memory with length = 1048576 exceed "), thrown.getMessage());
    assertTrue(thrown.getMessage().endsWith(". Fix: launch it with smaller lengths"), thrown.getMessage());
    SharedLengthKernelsKernels.readAt(vulkan, 64, out, 9, 8); // and the kernel still runs with a length that fits
    assertEquals(24, out[1]);
  }
}
