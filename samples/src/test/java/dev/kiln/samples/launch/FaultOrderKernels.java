package dev.kiln.samples.launch;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/** Kernels whose invocations fault in two ways, and a fused group whose arms do, for {@link FaultOrderTest}. */
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

  /** Every invocation past {@code out}'s end stores out of bounds: the group's first arm. */
  @Kernel(workgroup = 64)
  @FuseGroup("twoArms")
  static void storePast(int[] out) {
    int i = Gpu.globalId(0);
    out[i] = i;
  }

  /**
   * Every invocation from {@code zeroAt} on divides by zero, below the first arm's faults and among
   * them: Java runs the first arm over every invocation before this one, so the first arm's fault is
   * the one thrown.
   */
  @Kernel(workgroup = 64)
  @FuseGroup("twoArms")
  static void divideLow(int[] quotients, int zeroAt) {
    int i = Gpu.globalId(0);
    if (i < quotients.length) {
      int d = i >= zeroAt ? 0 : 1;
      quotients[i] = 100 / d;
    }
  }

  /** Counts its launches in {@code counter[0]}; its third stores past {@code out}'s end. */
  @Kernel(workgroup = 64)
  static void faultOnThird(int[] counter, int[] out) {
    if (Gpu.globalId(0) == 0) {
      int launches = counter[0] + 1;
      counter[0] = launches;
      if (launches == 3) {
        out[out.length] = launches;
      }
    }
  }
}
