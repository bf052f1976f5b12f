package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Scans} at ragged lengths against Java's loops: ints and longs bit for bit (they wrap as
 * Java's do), floats the same bits on both devices and within the reassociation bound of a double
 * sum; one, two and three levels of tiles; NaN and infinities where Java's loop has them; batches
 * with their scratch; the checks of lengths and arrays.
 */
class ScansTest extends LibraryDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {0, 1, 7, 127, 1000, 2047, 2048, 2049, 4099, 100_003})
  void intsAndLongsAreJavasLoops(int n) {
    Random random = new Random(n);
    int[] ints = random.ints(n).toArray();
    long[] longs = random.longs(n).toArray();
    for (Device device : devices()) {
      for (boolean exclusive : new boolean[] {false, true}) {
        int[] intsOut = new int[n + 3];
        long[] longsOut = new long[n];
        if (exclusive) {
          Scans.exclusive(device, ints, intsOut);
          Scans.exclusive(device, longs, longsOut);
        } else {
          Scans.inclusive(device, ints, intsOut);
          Scans.inclusive(device, longs, longsOut);
        }
        int intSum = 0;
        long longSum = 0;
        for (int i = 0; i < n; i++) {
          String where = device + (exclusive ? ", exclusive" : ", inclusive") + ", element " + i;
          assertEquals(exclusive ? intSum : intSum + ints[i], intsOut[i], where);
          assertEquals(exclusive ? longSum : longSum + longs[i], longsOut[i], where);
          intSum += ints[i];
          longSum += longs[i];
        }
        assertEquals(0, intsOut[n], "past the scan, out is left as it was");
      }
    }
  }

  /** 2048² + 5 elements: tiles, tiles of tiles' totals, and one tile of those. */
  @Test
  void threeLevelsOfTiles() {
    int n = 2048 * 2048 + 5;
    int[] ones = new int[n];
    java.util.Arrays.fill(ones, 1);
    ones[n - 1] = 7;
    for (Device device : devices()) {
      int[] out = new int[n];
      Scans.exclusive(device, ones, out);
      for (int i = 0; i < n; i++) {
        if (out[i] != i) {
          assertEquals(i, out[i], device + ", element " + i);
        }
      }
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 7, 127, 1000, 2049, 4099, 100_003})
  void floatsAreTheSameOnBothDevicesAndWithinTheBound(int n) {
    Random random = new Random(n);
    float[] in = new float[n];
    for (int i = 0; i < n; i++) {
      in[i] = (random.nextFloat() - 0.5f) * (1 << random.nextInt(12));
    }
    for (boolean exclusive : new boolean[] {false, true}) {
      float[] onCpu = new float[n];
      float[] onVulkan = new float[n];
      scan(cpu, in, onCpu, exclusive);
      scan(vulkan, in, onVulkan, exclusive);
      double exact = 0;
      double magnitude = 0;
      for (int i = 0; i < n; i++) {
        String where = (exclusive ? "exclusive" : "inclusive") + ", element " + i;
        assertEquals(Float.floatToIntBits(onCpu[i]), Float.floatToIntBits(onVulkan[i]), where);
        if (!exclusive) {
          exact += in[i];
          magnitude += Math.abs(in[i]);
        }
        assertTrue(Math.abs(onCpu[i] - exact) <= 64 * 0x1p-24 * magnitude, where);
        if (exclusive) {
          exact += in[i];
          magnitude += Math.abs(in[i]);
        }
      }
    }
  }

  /** A NaN, and infinities of both signs, reach the elements Java's loop gives them to. */
  @Test
  void nanAndInfinitiesWhereJavaHasThem() {
    int n = 5000;
    float[] in = new float[n];
    java.util.Arrays.fill(in, 0.5f);
    in[300] = Float.POSITIVE_INFINITY;
    in[2100] = Float.NEGATIVE_INFINITY;
    float[] nan = in.clone();
    java.util.Arrays.fill(nan, 300, n, 0.5f);
    nan[1234] = Float.NaN;
    for (Device device : devices()) {
      float[] infinities = new float[n];
      float[] nans = new float[n];
      Scans.inclusive(device, in, infinities);
      Scans.inclusive(device, nan, nans);
      for (int i = 0; i < n; i++) {
        String where = device + ", element " + i;
        float expected = i < 300 ? 0.5f * (i + 1) : i < 2100 ? Float.POSITIVE_INFINITY : Float.NaN;
        assertEquals(expected, infinities[i], where);
        assertEquals(i >= 1234, Float.isNaN(nans[i]), where);
      }
    }
  }

  @Test
  void aBatchRunsWithItsScratchAndDeviceArraysStayThere() {
    int n = 4000; // two tiles; every sum an integer below 2^24, exact in any order
    float[] values = new float[n];
    java.util.Arrays.fill(values, 2f);
    for (Device device : devices()) {
      try (FloatArray in = device.upload(values);
          FloatArray out = device.floats(n);
          FloatArray again = device.floats(n);
          Scans.Scratch<FloatArray> scratch = Scans.scratch(in)) {
        try (Batch batch = device.batch()) {
          Scans.inclusive(batch, in, out, scratch);
          Scans.exclusive(batch, out, again, scratch); // reads what the first wrote
        }
        float[] result = again.toArray();
        for (int i = 0; i < n; i++) {
          assertEquals((float) i * (i + 1), result[i], device + ", element " + i);
        }
      }
    }
  }

  @Test
  void lengthsAndArraysAreChecked() {
    for (Device device : devices()) {
      IndexOutOfBoundsException shortOut =
          assertThrows(
              IndexOutOfBoundsException.class,
              () -> Scans.inclusive(device, new int[10], new int[9]));
      assertEquals("out holds 9 elements, and 10 are needed", shortOut.getMessage());
      try (IntArray small = device.ints(100);
          IntArray large = device.ints(5000);
          IntArray out = device.ints(5000);
          Scans.Scratch<IntArray> scratch = Scans.scratch(small);
          Batch batch = device.batch()) {
        IllegalArgumentException tooSmall =
            assertThrows(
                IllegalArgumentException.class, () -> Scans.inclusive(batch, large, out, scratch));
        assertEquals(
            "the scratch was made for 100 elements; this scan has 5000", tooSmall.getMessage());
        IllegalArgumentException oneArray =
            assertThrows(IllegalArgumentException.class, () -> Scans.exclusive(device, out, out));
        assertTrue(
            oneArray
                .getMessage()
                .startsWith(
                    "dev.kiln.library.ScanKernels#intTiles: one array is"
                        + " passed as 'in' and as 'out'"),
            oneArray.getMessage());
      }
      int[] same = {1, 2, 3};
      Scans.inclusive(device, same, same); // Java arrays are copied: in place is fine
      assertArrayEquals(new int[] {1, 3, 6}, same);
    }
  }

  private static void scan(Device device, float[] in, float[] out, boolean exclusive) {
    if (exclusive) {
      Scans.exclusive(device, in, out);
    } else {
      Scans.inclusive(device, in, out);
    }
  }
}
