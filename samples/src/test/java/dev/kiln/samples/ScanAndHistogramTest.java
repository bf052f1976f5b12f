package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.Device;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The scan and histogram samples on Vulkan and on the CPU backend equal plain Java. */
class ScanAndHistogramTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 256, 257, 100_003})
  void workgroupScan(int n) {
    int[] data = new Random(n).ints(n, -1000, 1000).toArray();
    int groups = Math.ceilDiv(n, Scan.WORKGROUP);
    int[] expected = data.clone();
    int[] expectedTotals = new int[groups];
    for (int i = 0; i < n; i++) {
      boolean first = i % Scan.WORKGROUP == 0;
      expected[i] = first ? data[i] : expected[i - 1] + data[i];
      expectedTotals[i / Scan.WORKGROUP] = expected[i];
    }
    for (Device device : new Device[] {cpu, vulkan}) {
      int[] scanned = data.clone();
      int[] totals = new int[groups];
      ScanKernels.inclusiveScan(device, n, scanned, totals);
      Bits.assertSameBits("scan on " + device.backend(), expected, scanned);
      Bits.assertSameBits("totals on " + device.backend(), expectedTotals, totals);
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 100_003})
  void histograms(int n) {
    int[] values = Bits.randomInts(new Random(n), n);
    int[] expected = new int[Histogram.BINS];
    for (int value : values) {
      expected[Math.floorMod(value, Histogram.BINS)]++;
    }
    for (Device device : new Device[] {cpu, vulkan}) {
      int[] bins = new int[Histogram.BINS];
      HistogramKernels.histogram(device, n, values, bins);
      Bits.assertSameBits("histogram on " + device.backend(), expected, bins);
      int[] sharedBins = new int[Histogram.BINS];
      HistogramKernels.histogramShared(device, n, values, sharedBins);
      Bits.assertSameBits("shared-memory histogram on " + device.backend(), expected, sharedBins);
    }
  }
}
