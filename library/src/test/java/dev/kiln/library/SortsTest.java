package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Device;
import dev.kiln.IntArray;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Sorts} against {@code Arrays.sort} at ragged lengths: ints of the whole range and of few
 * distinct values, longs of the whole range and of equal high words, floats with NaN, infinities
 * and both zeros, and int keys with values, whose equal keys must keep their values' order
 * (stable).
 */
class SortsTest extends LibraryDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {0, 1, 2, 7, 127, 1000, 2048, 2049, 4099, 100_003})
  void intsAsArraysSortsThem(int n) {
    Random random = new Random(n);
    int[] wide = random.ints(n).toArray();
    int[] narrow = random.ints(n, -3, 4).toArray();
    for (int[] keys : new int[][] {wide, narrow}) {
      int[] expected = keys.clone();
      Arrays.sort(expected);
      for (Device device : devices()) {
        int[] sorted = keys.clone();
        Sorts.sort(device, sorted);
        assertArrayEquals(expected, sorted, device.toString());
      }
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {2, 7, 1000, 4099, 50_001})
  void longsAsArraysSortsThem(int n) {
    Random random = new Random(n);
    long[] wide = random.longs(n).toArray();
    long[] words = new long[n]; // equal high words, low words both sides of the sign bit
    for (int i = 0; i < n; i++) {
      words[i] = ((long) random.nextInt(3) - 1 << 32) | (random.nextInt() & 0xffff_ffffL);
    }
    for (long[] keys : new long[][] {wide, words}) {
      long[] expected = keys.clone();
      Arrays.sort(expected);
      for (Device device : devices()) {
        long[] sorted = keys.clone();
        Sorts.sort(device, sorted);
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, sorted, device.toString());
      }
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {3, 1000, 4099, 50_001})
  void floatsInFloatComparesOrder(int n) {
    Random random = new Random(n);
    float[] keys = new float[n];
    float[] specials = {
      Float.NaN,
      Float.POSITIVE_INFINITY,
      Float.NEGATIVE_INFINITY,
      0f,
      -0f,
      Float.MIN_VALUE,
      -Float.MIN_VALUE,
      Float.intBitsToFloat(0xffc0_0001)
    };
    for (int i = 0; i < n; i++) {
      keys[i] =
          random.nextInt(10) == 0
              ? specials[random.nextInt(specials.length)]
              : (random.nextFloat() - 0.5f) * (1 << random.nextInt(20));
    }
    float[] expected = keys.clone();
    Arrays.sort(expected);
    for (Device device : devices()) {
      float[] sorted = keys.clone();
      Sorts.sort(device, sorted);
      for (int i = 0; i < n; i++) {
        assertEquals(
            Float.floatToIntBits(expected[i]),
            Float.floatToRawIntBits(sorted[i]),
            device + ", element " + i);
      }
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {2, 999, 2049, 70_001})
  void valuesMoveWithTheirKeysStably(int n) {
    Random random = new Random(n);
    int[] keys = random.ints(n, -50, 50).toArray();
    int[] values = new int[n];
    Arrays.setAll(values, i -> i);
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingInt(i -> keys[i])); // stable
    for (Device device : devices()) {
      int[] sortedKeys = keys.clone();
      int[] sortedValues = values.clone();
      Sorts.sort(device, sortedKeys, sortedValues);
      for (int i = 0; i < n; i++) {
        assertEquals(keys[order[i]], sortedKeys[i], device + ", key " + i);
        assertEquals(order[i], sortedValues[i], device + ", value " + i);
      }
    }
  }

  @Test
  void deviceArraysSortInPlaceAndLengthsAreChecked() {
    int[] keys = new Random(9).ints(5000).toArray();
    int[] expected = keys.clone();
    Arrays.sort(expected);
    for (Device device : devices()) {
      try (IntArray onDevice = device.upload(keys)) {
        Sorts.sort(device, onDevice);
        assertArrayEquals(expected, onDevice.toArray(), device.toString());
      }
      try (IntArray first = device.upload(keys);
          IntArray second = device.upload(keys);
          dev.kiln.FloatArray floats = device.floats(10);
          Sorts.Scratch scratch = Sorts.scratch(first);
          dev.kiln.Batch batch = device.batch()) {
        Sorts.sort(batch, first, scratch);
        Sorts.sort(batch, second, scratch); // one scratch, one sort after the other
        IllegalArgumentException noValues =
            assertThrows(
                IllegalArgumentException.class, () -> Sorts.sort(batch, first, second, scratch));
        assertEquals(
            "the scratch was made for 5000 keys without values; this sort has 5000",
            noValues.getMessage());
        IllegalArgumentException notFloats =
            assertThrows(IllegalArgumentException.class, () -> Sorts.sort(batch, floats, scratch));
        assertEquals(
            "the scratch was made for 5000 keys without float keys; this sort has 10",
            notFloats.getMessage());
        batch.submit();
        assertArrayEquals(expected, first.toArray(), device + ", batch");
        assertArrayEquals(expected, second.toArray(), device + ", batch");
      }
      long[] longs = new Random(10).longs(keys.length).toArray();
      long[] sortedLongs = longs.clone();
      Arrays.sort(sortedLongs);
      try (dev.kiln.LongArray onDevice = device.upload(longs);
          Sorts.Scratch scratch = Sorts.scratch(onDevice);
          IntArray ints = device.upload(keys);
          dev.kiln.Batch batch = device.batch()) {
        Sorts.sort(batch, onDevice, scratch);
        Sorts.sort(batch, ints, scratch); // a long sort's scratch serves an int sort too
        batch.submit();
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            sortedLongs, onDevice.toArray(), device + ", long batch");
        assertArrayEquals(expected, ints.toArray(), device + ", int in a long scratch");
      }
      IllegalArgumentException mismatch =
          assertThrows(
              IllegalArgumentException.class, () -> Sorts.sort(device, new int[3], new int[2]));
      assertEquals("3 keys and 2 values: one each", mismatch.getMessage());
    }
  }
}
