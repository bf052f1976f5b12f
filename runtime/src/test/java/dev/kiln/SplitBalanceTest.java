package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** How a device set divides ids: shares, measured speeds, whole workgroups. */
class SplitBalanceTest {
  private static final Object KERNEL = "kernel";
  private static final Object OTHER = "other";

  @Test
  void sharesDivideOnWholeUnitsAndTheLastRangeEndsAtTheCount() {
    SplitBalance balance = new SplitBalance(3, new double[] {1, 2, 1});
    assertArrayEquals(new int[] {0, 2560, 7424, 10_001}, balance.bounds(KERNEL, 10_001, 256));
    assertArrayEquals(
        new int[] {0, 0, 0, 100},
        balance.bounds(KERNEL, 100, 256),
        "fewer ids than a unit: the last device");
  }

  @Test
  void aZeroShareGetsAnEmptyRange() {
    SplitBalance balance = new SplitBalance(2, new double[] {0, 1});
    assertArrayEquals(new int[] {0, 0, 5000}, balance.bounds(KERNEL, 5000, 64));
  }

  @Test
  void measuredSpeedsSetTheNextSplitPerKernel() {
    SplitBalance balance = new SplitBalance(2, null);
    assertArrayEquals(
        new int[] {0, 4992, 10_000},
        balance.bounds(KERNEL, 10_000, 64),
        "even before a measurement");
    // the first device ran 5120 ids in 4 ms, the second 4880 in 1 ms (as measured; the bounds
    // round): about 5 times faster
    balance.learn(
        KERNEL, new int[] {0, 1}, new int[] {5120, 4880}, new long[] {4_000_000, 1_000_000});
    int[] next = balance.bounds(KERNEL, 10_000, 64);
    assertArrayEquals(new int[] {0, 2048, 10_000}, next, "1.28 : 4.88 ids per microsecond");
    assertArrayEquals(
        new int[] {0, 4992, 10_000},
        balance.bounds(OTHER, 10_000, 64),
        "another kernel is its own");
  }

  @Test
  void aNewMeasurementWeighsHalfAndADeviceWithoutAPartKeepsItsSpeed() {
    SplitBalance balance = new SplitBalance(2, null);
    balance.learn(
        KERNEL, new int[] {0, 1}, new int[] {1000, 1000}, new long[] {1000, 1000}); // 1 and 1
    balance.learn(
        KERNEL, new int[] {1}, new int[] {3000}, new long[] {1000}); // the second alone: 3, now 2
    assertArrayEquals(new int[] {0, 3328, 10_000}, balance.bounds(KERNEL, 10_000, 64), "1 : 2");
  }

  @Test
  void aDeviceNotYetMeasuredCountsAsTheMeanOfTheMeasured() {
    SplitBalance balance = new SplitBalance(3, null);
    balance.learn(
        KERNEL,
        new int[] {0, 1},
        new int[] {1000, 3000},
        new long[] {1000, 1000}); // 1, 3; the third 2
    assertArrayEquals(new int[] {0, 1664, 6656, 10_000}, balance.bounds(KERNEL, 10_000, 64));
  }
}
