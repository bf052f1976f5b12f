package dev.kiln.samples.launch;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Kernels for {@link SplitLaunchTest}: each reads or writes its buffers in one of the ways a split tells apart. */
final class SplitKernels {
  private SplitKernels() {}

  /** Reads its neighbours (every device needs all of {@code in}), writes its own element. */
  @Kernel(workgroup = 64)
  static void neighbours(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      float left = i > 0 ? in[i - 1] : 0f;
      float right = i + 1 < in.length ? in[i + 1] : 0f;
      out[i] = 0.25f * left + 0.5f * in[i] + 0.25f * right;
    }
  }

  /** Reverses each workgroup's run of {@code in} through workgroup memory: barriers, and whole workgroups per device. */
  @Kernel(workgroup = 128)
  static void reverseRuns(@Buffer(Access.READ) int[] in, @Buffer(Access.WRITE) int[] out) {
    int[] run = Gpu.sharedInts(128);
    int i = Gpu.globalId(0);
    int local = Gpu.localId(0);
    run[local] = i < in.length ? in[i] : -1;
    Gpu.barrier();
    if (i < out.length) {
      out[i] = run[127 - local] * 3 + Gpu.workgroupId(0);
    }
  }

  /** Squares complex numbers stored as (re, im) pairs: each id owns the block of two elements at {@code 2i}. */
  @Kernel(workgroup = 64)
  static void complexSquares(@Buffer(Access.READ) float[] z, @Buffer(Access.WRITE) float[] out, int n) {
    int i = Gpu.globalId(0);
    if (i < n) {
      float re = z[2 * i];
      float im = z[2 * i + 1];
      out[2 * i] = re * re - im * im;
      out[2 * i + 1] = 2f * re * im;
    }
  }

  /** Writes a byte per element: four of them share a 32-bit word on the device. */
  @Kernel(workgroup = 32)
  static void bytes(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) byte[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = (byte) (in[i] * 7f);
    }
  }

  /** Reads {@code in[i + shift]}: out of bounds for the last ids where {@code shift > 0}. */
  @Kernel(workgroup = 64)
  static void shifted(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int shift) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = in[i + shift];
    }
  }

  /** Writes {@code out[n - 1 - i]}: the ids at one end write the elements at the other, so a split is refused. */
  @Kernel(workgroup = 64)
  static void reverse(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int n) {
    int i = Gpu.globalId(0);
    if (i < n) {
      out[n - 1 - i] = in[i];
    }
  }
}
