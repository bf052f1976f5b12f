package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** A kernel whose invocations fault in two ways, for {@link FaultOrderTest}. */
final class FaultOrderKernels {
  private FaultOrderKernels() {}

  /**
   * Invocation {@code zeroAt} divides by zero, after reading {@code zeros} {@code spin} times (so
   * that it faults after invocations above it have); every invocation past {@code out}'s end stores
   * out of bounds (after it divides, as Java evaluates {@code out[i] = 100 / d}).
   */
  @Kernel(workgroup = 64)
  static void twoFaults(int[] out, @Buffer(Access.READ) int[] zeros, int zeroAt, int spin) {
    int i = Gpu.globalId(0);
    int d = 1;
    if (i == zeroAt) {
      d = 0;
      for (int k = 0; k < spin; k++) {
        d += zeros[(d + k) & 1023]; // each read waits for the last
      }
    }
    out[i] = 100 / d;
  }
}
