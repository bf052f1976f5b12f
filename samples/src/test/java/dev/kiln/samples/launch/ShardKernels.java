package dev.kiln.samples.launch;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Kernels for {@link ShardedLaunchTest} beside the samples' ({@code Stencil.relax}, {@code Saxpy.saxpy}): each reads
 * its buffers in one of the ways a sharded launch serves.
 */
final class ShardKernels {
  private ShardKernels() {}

  /** Gathers {@code table[keys[i]]}: the table is read anywhere, so every device needs all of it. */
  @Kernel(workgroup = 64)
  static void lookUp(@Buffer(Access.READ) int[] keys, @Buffer(Access.READ) float[] table,
      @Buffer(Access.WRITE) float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = table[keys[i]];
    }
  }

  /** Reads its element and writes nothing: it only faults, past the end. A launch of replicated arrays alone. */
  @Kernel(workgroup = 64)
  static void touch(@Buffer(Access.READ) float[] a) {
    float unused = a[Gpu.globalId(0)];
  }

  /** Scales {@code x} in place, its own element per id. */
  @Kernel(workgroup = 128)
  static void scale(float[] x, float factor) {
    int i = Gpu.globalId(0);
    if (i < x.length) {
      x[i] = x[i] * factor;
    }
  }
}
