package dev.kiln.samples.semantics;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Workgroup arrays whose length a parameter gives ({@link SharedLengthsTest}): the launch sets it,
 * and Vulkan keeps a pipeline per length.
 */
final class SharedLengthKernels {
  static final int GROUP = 64;

  private SharedLengthKernels() {}

  /** Each workgroup reverses its chunk of {@code tile} elements, staged in an array of that length. */
  @Kernel(workgroup = {GROUP})
  static void reverseChunks(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int tile) {
    float[] chunk = Gpu.sharedFloats(tile);
    int l = Gpu.localId(0);
    int base = Gpu.workgroupId(0) * tile;
    for (int e = l; e < chunk.length; e += GROUP) {
      chunk[e] = base + e < in.length ? in[base + e] : -1f;
    }
    Gpu.barrier();
    for (int e = l; e < tile; e += GROUP) {
      if (base + e < out.length) {
        out[base + e] = chunk[tile - 1 - e];
      }
    }
  }

  /** Element {@code at} of a workgroup array of {@code length} ints, and its length. */
  @Kernel(workgroup = {GROUP})
  static void readAt(@Buffer(Access.WRITE) int[] out, int length, int at) {
    int[] values = Gpu.sharedInts(length);
    int l = Gpu.localId(0);
    if (l < values.length) {
      values[l] = 3 * l;
    }
    Gpu.barrier();
    if (Gpu.globalId(0) == 0) {
      out[0] = values.length;
      out[1] = values[at];
    }
  }
}
