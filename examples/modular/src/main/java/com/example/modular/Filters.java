package com.example.modular;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/** A kernel with workgroup memory and a barrier, a fuse group, and a kernel that faults. */
final class Filters {
  private Filters() {}

  /** Each output is the sum of its workgroup's 64 inputs. */
  @Kernel(workgroup = 64)
  static void groupSums(@Buffer(Access.READ) int[] in, int[] out) {
    int[] shared = Gpu.sharedInts(64);
    int local = Gpu.localId(0);
    int i = Gpu.globalId(0);
    shared[local] = i < in.length ? in[i] : 0;
    Gpu.barrier();
    for (int step = 32; step > 0; step >>= 1) {
      if (local < step) {
        shared[local] += shared[local + step];
      }
      Gpu.barrier();
    }
    if (i < out.length) {
      out[i] = shared[0];
    }
  }

  /** Scales each value; the first arm of {@code scaleThenShift}. */
  @Kernel(workgroup = 128)
  @FuseGroup("scaleThenShift")
  static void scale(float[] values, float factor) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      values[i] *= factor;
    }
  }

  /** Adds to each value; the second arm of {@code scaleThenShift}. */
  @Kernel(workgroup = 128)
  @FuseGroup("scaleThenShift")
  static void shift(float[] values, float offset) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      values[i] += offset;
    }
  }

  /** Writes one past the end of {@code out} at its last invocation. */
  @Kernel(workgroup = 64)
  static void pastTheEnd(int[] out) {
    int i = Gpu.globalId(0);
    out[i + 1] = i;
  }
}
