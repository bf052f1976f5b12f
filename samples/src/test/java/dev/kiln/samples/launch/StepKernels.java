package dev.kiln.samples.launch;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Kernels for {@link RecordingTest}: steps that read what changes between runs (a position) from a
 * device array, as a recorded decoder step does.
 */
final class StepKernels {
  private StepKernels() {}

  /** {@code y[i] += x[i] * (position[0] + 1)}; {@code y[i] / position[0]}, which faults at 0. */
  @Kernel(workgroup = 64)
  static void scaledAdd(@Buffer(Access.READ) int[] position, @Buffer(Access.READ) int[] x, int[] y, int divide) {
    int i = Gpu.globalId(0);
    if (i < y.length) {
      y[i] = divide != 0 ? y[i] / position[0] : y[i] + x[i] * (position[0] + 1);
    }
  }

  /** {@code log[position[0]] = y[position[0]]}: writes where the position says. */
  @Kernel(workgroup = 64)
  static void keep(@Buffer(Access.READ) int[] position, @Buffer(Access.READ) int[] y, @Buffer(Access.WRITE) int[] log) {
    if (Gpu.globalId(0) == 0) {
      log[position[0]] = y[position[0]];
    }
  }

  /** {@code position[0] += 1}: a run that moves the position on for the next, on the device. */
  @Kernel(workgroup = 64)
  static void advance(int[] position) {
    if (Gpu.globalId(0) == 0) {
      position[0] = position[0] + 1;
    }
  }
}
