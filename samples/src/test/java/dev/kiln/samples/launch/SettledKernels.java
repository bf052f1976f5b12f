package dev.kiln.samples.launch;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * A kernel for {@link SettledChecksTest} (beside {@link dev.kiln.samples.Stencil#smooth}): accesses in bounds only
 * where the launch's lengths fit its scalars and grid, which the processor cannot prove alone and
 * hands the runtime as launch proofs.
 */
final class SettledKernels {
  private SettledKernels() {}

  /** Each id's element, shifted: in bounds where the grid and {@code offset} fit the lengths. */
  @Kernel(workgroup = 64)
  static void shifted(@Buffer(Access.READ) int[] in, @Buffer(Access.WRITE) int[] out, int offset) {
    int i = Gpu.globalId(0);
    out[i] = in[i + offset] * 3;
  }
}
