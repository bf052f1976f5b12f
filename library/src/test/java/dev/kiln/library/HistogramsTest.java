package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.IntArray;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Histograms} against Java's {@code counts[v]++} at ragged sizes and bin counts that take
 * each path (counters of constant size up to 256 bins, 4, 2 and 1 copies in workgroup memory, the
 * buffer itself), with skewed input, stale counts overwritten, device arrays in a batch, and values
 * outside the bins.
 */
class HistogramsTest extends LibraryDevices {
  @ParameterizedTest(name = "{0} values, {1} bins")
  @CsvSource({
    "0, 7",
    "1, 1",
    "7, 3",
    "1000, 256",
    "100003, 257",
    "4099, 1000",
    "100003, 1024",
    "100003, 1025",
    "50000, 2049",
    "50000, 4097",
    "70001, 100000",
    "300007, 17"
  })
  void countsAreJavas(int n, int bins) {
    Random random = new Random(n * 31L + bins);
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextInt(10) < 3 ? bins / 2 : random.nextInt(bins); // 30 % in one bin
    }
    int[] expected = new int[bins];
    for (int v : values) {
      expected[v]++;
    }
    for (Device device : devices()) {
      int[] counts = new int[bins];
      java.util.Arrays.fill(counts, 5); // stale counts are overwritten
      Histograms.counts(device, values, counts);
      assertArrayEquals(expected, counts, device.toString());
    }
  }

  @Test
  void deviceArraysInABatch() {
    int n = 20_000;
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = i % 300;
    }
    for (Device device : devices()) {
      try (IntArray in = device.upload(values);
          IntArray counts = device.upload(new int[300]);
          IntArray again = device.ints(300)) {
        try (Batch batch = device.batch()) {
          Histograms.counts(batch, in, counts);
          Histograms.counts(batch, counts, again); // the counts' own histogram
        }
        int[] expected = new int[300];
        for (int v : values) {
          expected[v]++;
        }
        assertArrayEquals(expected, counts.toArray(), device.toString());
        int[] ofCounts = new int[300];
        ofCounts[67] = 200; // 20000 = 300 · 66 + 200: 200 bins hold 67, 100 hold 66
        ofCounts[66] = 100;
        assertArrayEquals(ofCounts, again.toArray(), device.toString());
      }
    }
  }

  @Test
  void aValueOutsideTheBinsThrowsAsJavaWould() {
    for (Device device : devices()) {
      for (int bins : new int[] {16, 1000, 5000}) {
        int[] values = new int[1000];
        values[700] = bins;
        ArrayIndexOutOfBoundsException past =
            assertThrows(
                ArrayIndexOutOfBoundsException.class,
                () -> Histograms.counts(device, values, new int[bins]));
        assertTrue(
            past.getMessage().contains("Index " + bins + " out of bounds for length " + bins),
            device + ": " + past.getMessage());
        values[700] = -3;
        ArrayIndexOutOfBoundsException negative =
            assertThrows(
                ArrayIndexOutOfBoundsException.class,
                () -> Histograms.counts(device, values, new int[bins]));
        assertTrue(
            negative.getMessage().contains("Index -3 out of bounds for length " + bins),
            device + ": " + negative.getMessage());
      }
      IllegalArgumentException none =
          assertThrows(
              IllegalArgumentException.class,
              () -> Histograms.counts(device, new int[3], new int[0]));
      assertEquals("counts: a histogram needs at least one bin", none.getMessage());
    }
  }
}
