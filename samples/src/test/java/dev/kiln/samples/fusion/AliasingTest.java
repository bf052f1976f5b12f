package dev.kiln.samples.fusion;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.FloatArray;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * One array passed for two parameters: refused where a write may meet another invocation's access
 * through the other (on Java arrays and device arrays, single, batched, split and fused launches),
 * and run as Java runs it where every invocation reads and writes only its own element of both.
 */
class AliasingTest extends BothDevices {
  private static final int N = 1_001; // not a multiple of the workgroup
  private static final String NEIGHBOURS_REFUSED = "dev.kiln.samples.fusion.AliasKernels#neighbours: one array is passed"
      + " as 'in' and as 'out'; the kernel writes one of them at elements that other invocations may reach through"
      + " the other, so with one array its result would depend on the order the device runs them in, where Java's"
      + " loop has one. Fix: pass a copy as 'in' (in.clone(), or another device array), or write the kernel so that"
      + " each invocation reads and writes only its own element of both";

  @Test
  void oneArrayForANeighbourReadAndAWriteIsRefused() {
    for (Device device : new Device[] {cpu, cpuMethods, vulkan}) {
      float[] data = Bits.randomFloats(new Random(1), N, 10f);
      float[] before = data.clone();
      assertRefused(NEIGHBOURS_REFUSED, () -> AliasKernelsKernels.neighbours(device, N, data, data));
      try (FloatArray array = device.upload(data)) {
        assertRefused(NEIGHBOURS_REFUSED, () -> AliasKernelsKernels.neighbours(device, N, array, array));
        try (Batch batch = device.batch()) {
          assertRefused(NEIGHBOURS_REFUSED, () -> AliasKernelsKernels.neighbours(batch, N, array, array));
        }
        assertEquals(Arrays.toString(before), Arrays.toString(array.toArray()), "nothing ran on " + device);
      }
      assertEquals(Arrays.toString(before), Arrays.toString(data), "nothing ran on " + device);
    }
    try (DeviceSet both = DeviceSet.of(cpu, vulkan)) {
      float[] data = new float[N];
      assertRefused("dev.kiln.samples.fusion.AliasKernels#neighbours: one array is passed as 'in', which each device reads"
          + " beyond its own elements, and as 'out', which each device writes part of; split, the devices would read each other's"
          + " writes in an order no single device has. Fix: pass a copy as 'in', or run on one device",
          () -> AliasKernelsKernels.neighbours(both, N, data, data));
    }
  }

  @Test
  void aGroupWithAnArmThatReadsNeighboursIsRefusedToo() {
    float[] data = new float[N];
    for (Device device : new Device[] {cpu, vulkan}) {
      assertRefused("dev.kiln.samples.fusion.AliasKernels#smoothThenScale: one array is passed as 'in' and as 'out'; the"
          + " kernel writes one of them at elements that other invocations may reach through the other, so with one"
          + " array its result would depend on the order the device runs them in, where Java's loop has one. Fix: pass"
          + " a copy as 'in' (in.clone(), or another device array), or write the kernel so that each invocation reads"
          + " and writes only its own element of both",
          () -> AliasKernelsKernels.smoothThenScale(device, N, data, data, 2f));
    }
  }

  @Test
  void ownElementsWrittenBeforeTheOtherIsReadAreRefused() {
    float[] data = new float[N];
    String refused = NEIGHBOURS_REFUSED.replace("#neighbours", "#writeThenRead");
    for (Device device : new Device[] {cpu, vulkan}) {
      assertRefused(refused, () -> AliasKernelsKernels.writeThenRead(device, N, data, data, 3f));
    }
    try (DeviceSet both = DeviceSet.of(cpu, vulkan)) { // both parts sliced alike: refused as on one device
      assertRefused(refused, () -> AliasKernelsKernels.writeThenRead(both, N, data, data, 3f));
    }
  }

  @Test
  void oneArrayForOwnElementsRunsAsJavaDoes() {
    for (Device device : new Device[] {cpu, cpuMethods, vulkan}) {
      float[] data = Bits.randomFloats(new Random(2), N, 10f);
      float[] expected = scaledInPlace(data);
      AliasKernelsKernels.scaleInto(device, N, data, data, 3f);
      Bits.assertSameBits("one Java array on " + device, expected, data);
      float[] values = Bits.randomFloats(new Random(3), N, 10f);
      try (FloatArray array = device.upload(values)) {
        AliasKernelsKernels.scaleInto(device, N, array, array, 3f);
        Bits.assertSameBits("one device array on " + device, scaledInPlace(values), array.toArray());
      }
    }
    try (DeviceSet both = DeviceSet.of(cpu, vulkan)) {
      float[] data = Bits.randomFloats(new Random(4), N, 10f);
      float[] expected = scaledInPlace(data);
      AliasKernelsKernels.scaleInto(both, N, data, data, 3f);
      Bits.assertSameBits("one Java array split across the CPU and Vulkan", expected, data);
    }
  }

  /** What Java's loop over the invocations makes of one array passed as both. */
  private static float[] scaledInPlace(float[] data) {
    float[] result = data.clone();
    for (int i = 0; i < result.length; i++) {
      float v = result[i];
      result[i] = 1f;
      result[i] += v * 3f;
    }
    return result;
  }

  private static void assertRefused(String message, Executable launch) {
    assertEquals(message, assertThrows(IllegalArgumentException.class, launch).getMessage());
  }
}
