package dev.kiln;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a {@link DeviceSet} divides a launch's ids among its devices: in fixed proportions, or in
 * proportion to each device's measured speed on the kernel (ids per nanosecond of its part, copies
 * included), which starts even and follows each launch's measurement, the new one weighing half.
 * Every boundary lies on a multiple of the kernel's unit, the ids of a workgroup.
 */
final class SplitBalance {
  /** How much a new measurement of a device's speed weighs against what was known. */
  private static final double NEW_WEIGHT = 0.5;

  private final int devices;

  /** Fixed proportions, or null to follow the measured speeds. */
  private final double[] shares;

  /** Per kernel, each device's measured ids per nanosecond (0 where not measured yet). */
  private final Map<Object, double[]> speeds = new ConcurrentHashMap<>();

  /** A balance of {@code devices} devices, by {@code shares} where given (else null: by speed). */
  SplitBalance(int devices, double[] shares) {
    this.devices = devices;
    this.shares = shares == null ? null : shares.clone();
  }

  /**
   * Where each device's range of {@code kernel}'s {@code count} ids begins, and after the last
   * where it ends ({@code count}); a device whose range is empty gets no part.
   */
  int[] bounds(Object kernel, int count, int unit) {
    double[] weights = shares != null ? shares : weights(kernel);
    double total = Arrays.stream(weights).sum();
    int[] bounds = new int[devices + 1];
    double sum = 0;
    for (int d = 0; d < devices; d++) {
      sum += weights[d];
      long boundary = d == devices - 1 ? count : Math.round(count * (sum / total) / unit) * unit;
      bounds[d + 1] = Math.clamp(boundary, bounds[d], count);
    }
    return bounds;
  }

  /**
   * Each device's measured speed on {@code kernel}; where one is unknown, the mean of the known
   * (all 1 when none is).
   */
  private double[] weights(Object kernel) {
    double[] speed = speeds.get(kernel);
    double[] weights = new double[devices];
    double known = speed == null ? 0 : Arrays.stream(speed).filter(s -> s > 0).average().orElse(0);
    for (int d = 0; d < devices; d++) {
      weights[d] = speed != null && speed[d] > 0 ? speed[d] : known > 0 ? known : 1;
    }
    return weights;
  }

  /**
   * Folds one launch of {@code kernel} into the speeds: device {@code device[k]} ran {@code ids[k]}
   * ids in {@code nanos[k]}. A device without a part keeps the speed it had.
   */
  void learn(Object kernel, int[] device, int[] ids, long[] nanos) {
    if (shares != null) {
      return;
    }
    speeds.compute(
        kernel,
        (key, old) -> {
          double[] speed = old == null ? new double[devices] : old.clone();
          for (int k = 0; k < device.length; k++) {
            double measured = (double) ids[k] / Math.max(1, nanos[k]);
            int d = device[k];
            speed[d] =
                speed[d] > 0 ? (1 - NEW_WEIGHT) * speed[d] + NEW_WEIGHT * measured : measured;
          }
          return speed;
        });
  }
}
