package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link DeviceArray#copyTo}: the copy between devices, through host memory in chunks, at lengths
 * around the chunk's, for every element type, between two CPU devices, the CPU and Vulkan, and two
 * devices on one Vulkan device (lavapipe opened twice).
 */
class CopyBetweenDevicesTest {
  private static final int CHUNK = 1000;
  private static final int[] LENGTHS = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 503};

  /**
   * Copies random floats of every length from {@code from} to {@code to}, checking each bit and the
   * owner.
   */
  private static void copiesFloats(Device from, Device to) {
    Random random = new Random(29);
    for (int length : LENGTHS) {
      float[] values = new float[length];
      for (int i = 0; i < length; i++) {
        values[i] =
            Float.intBitsToFloat(random.nextInt()); // NaN payloads and subnormals among them
      }
      try (FloatArray source = from.upload(values);
          FloatArray copy = source.copyTo(to, CHUNK)) {
        assertSame(to, copy.device());
        assertEquals(length, copy.length());
        int[] expected = new int[length];
        int[] got = new int[length];
        float[] copied = copy.toArray();
        for (int i = 0; i < length; i++) {
          expected[i] = Float.floatToRawIntBits(values[i]);
          got[i] = Float.floatToRawIntBits(copied[i]);
        }
        assertArrayEquals(expected, got, "length " + length + " from " + from + " to " + to);
        assertArrayEquals(values, source.toArray(), "the source is left as it was");
      }
    }
  }

  @Test
  void betweenTwoCpuDevices() {
    try (Device one = Device.open("cpu");
        Device other = Device.open("cpu")) {
      copiesFloats(one, other);
      copiesFloats(one, one);
    }
  }

  @Test
  void betweenVulkanAndTheCpuAndTwoDevicesOnOneVulkanDevice() {
    try (Device vulkan = TestVulkan.open();
        Device second = Device.open("vulkan");
        Device cpu = Device.open("cpu")) {
      copiesFloats(cpu, vulkan);
      copiesFloats(vulkan, cpu);
      copiesFloats(vulkan, second);
    }
  }

  @Test
  void everyElementTypeCopies() {
    try (Device one = Device.open("cpu");
        Device other = Device.open("cpu")) {
      int n = 2 * 8 + 5; // chunks of 8
      Random random = new Random(30);
      long[] longs = random.longs(n).toArray();
      double[] doubles = random.doubles(n).toArray();
      int[] ints = random.ints(n).toArray();
      byte[] bytes = new byte[n];
      random.nextBytes(bytes);
      short[] shorts = new short[n];
      char[] chars = new char[n];
      boolean[] booleans = new boolean[n];
      float[] floats = new float[n];
      for (int i = 0; i < n; i++) {
        shorts[i] = (short) random.nextInt();
        chars[i] = (char) random.nextInt();
        booleans[i] = random.nextBoolean();
        floats[i] = random.nextFloat();
      }
      assertArrayEquals(longs, one.upload(longs).copyTo(other, 8).toArray());
      assertArrayEquals(doubles, one.upload(doubles).copyTo(other, 8).toArray());
      assertArrayEquals(ints, one.upload(ints).copyTo(other, 8).toArray());
      assertArrayEquals(bytes, one.upload(bytes).copyTo(other, 8).toArray());
      assertArrayEquals(shorts, one.upload(shorts).copyTo(other, 8).toArray());
      assertArrayEquals(chars, one.upload(chars).copyTo(other, 8).toArray());
      assertArrayEquals(booleans, one.upload(booleans).copyTo(other, 8).toArray());
      assertArrayEquals(floats, one.upload(floats).copyTo(other, 8).toArray());
      assertArrayEquals(
          floats, one.upload(floats).copyTo(other).toArray(), "in the default chunks");
    }
  }

  @Test
  void aCopyIntoAnArrayOverwritesItAndRefusesAnotherLength() {
    try (Device one = Device.open("cpu");
        Device other = Device.open("cpu");
        FloatArray source = one.upload(new float[] {1f, -2f, Float.NaN});
        FloatArray target = other.upload(new float[] {7f, 7f, 7f});
        FloatArray shorter = other.floats(2)) {
      source.copyInto(target);
      assertArrayEquals(new float[] {1f, -2f, Float.NaN}, target.toArray());
      assertEquals(
          "the target has 2 elements, this array 3. Fix: copy into an array of the same length, or"
              + " copyTo(device) for a new one",
          assertThrows(IllegalArgumentException.class, () -> source.copyInto(shorter))
              .getMessage());
    }
  }

  /** A copy that fails (a closed source) throws and leaves no array on the target. */
  @Test
  void aFailedCopyLeavesNothingBehind() {
    try (Device one = Device.open("cpu");
        Device other = Device.open("cpu")) {
      FloatArray closed = one.floats(3 * CHUNK);
      closed.close();
      int before = other.resources().buffers();
      IllegalStateException thrown =
          assertThrows(IllegalStateException.class, () -> closed.copyTo(other, CHUNK));
      assertEquals("FloatArray of length " + 3 * CHUNK + " is closed", thrown.getMessage());
      assertEquals(before, other.resources().buffers());
    }
  }
}
