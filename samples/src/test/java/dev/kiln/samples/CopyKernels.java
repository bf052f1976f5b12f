package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * Kernels for {@link CopyTest}: {@code System.arraycopy} between buffers, workgroup and private
 * arrays of each element type, at indices that are multiples of a 16-byte quad's elements or not
 * (as {@code shift} decides at run time), in whole quads and in lengths that are not.
 */
final class CopyKernels {
  private CopyKernels() {}

  /** Eight shorts per invocation through workgroup memory held as quads, written back in reverse order of the invocations. */
  @Kernel(workgroup = 32)
  static void shortsThroughWorkgroup(@Buffer(Access.READ) short[] in, @Buffer(Access.WRITE) short[] out, int shift) {
    short[] staged = Gpu.sharedPackedShorts(32 * 8);
    int self = Gpu.localId(0);
    int block = Gpu.workgroupId(0) * 32 * 8;
    System.arraycopy(in, block + self * 8 + shift, staged, self * 8, 8);
    Gpu.barrier();
    System.arraycopy(staged, (31 - self) * 8, out, block + self * 8 + shift, 8);
  }

  /** A private array of chars held as quads: copied in, read element by element, copied out. */
  @Kernel(workgroup = 64)
  static void charsThroughPrivate(@Buffer(Access.READ) char[] in, @Buffer(Access.WRITE) char[] out,
      @Buffer(Access.WRITE) int[] sums, int shift) {
    int i = Gpu.globalId(0);
    char[] mine = new char[16];
    System.arraycopy(in, i * 16 + shift, mine, 0, 16);
    int sum = 0;
    for (int k = 0; k < 16; k++) {
      sum = sum * 31 + mine[k];
    }
    sums[i] = sum;
    System.arraycopy(mine, 8, out, i * 16 + shift, 8);
    System.arraycopy(mine, 0, out, i * 16 + shift + 8, 8);
  }

  /** Floats from buffer to buffer: a quad, then 3 (not whole quads). */
  @Kernel(workgroup = 64)
  static void floats(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int shift) {
    int i = Gpu.globalId(0);
    System.arraycopy(in, i * 8 + shift, out, i * 8, 4);
    System.arraycopy(in, i * 8 + 4, out, i * 8 + 4 + shift, 3);
  }

  /** Longs, doubles and bytes in quads, ints through workgroup memory of ints (element by element). */
  @Kernel(workgroup = 16)
  static void mixed(@Buffer(Access.READ) long[] longsIn, @Buffer(Access.WRITE) long[] longsOut,
      @Buffer(Access.READ) double[] doublesIn, @Buffer(Access.WRITE) double[] doublesOut,
      @Buffer(Access.READ) byte[] bytesIn, @Buffer(Access.WRITE) byte[] bytesOut,
      @Buffer(Access.READ) int[] intsIn, @Buffer(Access.WRITE) int[] intsOut, int shift) {
    int i = Gpu.globalId(0);
    int self = Gpu.localId(0);
    System.arraycopy(longsIn, i * 2 + shift, longsOut, i * 2, 2);
    System.arraycopy(doublesIn, i * 4, doublesOut, i * 4 + shift, 4);
    System.arraycopy(bytesIn, i * 32 + shift, bytesOut, i * 32, 32);
    int[] staged = Gpu.sharedInts(16 * 4);
    System.arraycopy(intsIn, i * 4 + shift, staged, self * 4, 4);
    Gpu.barrier();
    System.arraycopy(staged, (15 - self) * 4, intsOut, i * 4, 4);
  }

  /**
   * Workgroup floats held as quads, stored element by element (transposed) and copied out 4 at a
   * time, and a private array of floats copied from them and summed.
   */
  @Kernel(workgroup = 64)
  static void transposedFloats(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out,
      @Buffer(Access.WRITE) float[] sums) {
    float[] staged = Gpu.sharedFloats(4 * 64); // [k][invocation]
    int self = Gpu.localId(0);
    int i = Gpu.globalId(0);
    for (int k = 0; k < 4; k++) {
      staged[k * 64 + self] = in[i * 4 + k];
    }
    Gpu.barrier();
    float[] mine = new float[4];
    System.arraycopy(staged, self / 16 * 64 + self % 16 * 4, mine, 0, 4);
    System.arraycopy(mine, 0, out, i * 4, 4);
    sums[i] = mine[0] + mine[1] * 2f + mine[2] * 3f + mine[3] * 4f;
  }

  /** A copy within one private array, its ranges overlapping: Java copies as if through a temporary. */
  @Kernel(workgroup = 64)
  static void overlapping(@Buffer(Access.READ) int[] in, @Buffer(Access.WRITE) int[] out, int from, int to) {
    int i = Gpu.globalId(0);
    int[] mine = new int[12];
    for (int k = 0; k < 12; k++) {
      mine[k] = in[i * 12 + k];
    }
    System.arraycopy(mine, from, mine, to, 8);
    for (int k = 0; k < 12; k++) {
      out[i * 12 + k] = mine[k];
    }
  }

  /** A copy whose ranges {@code from} and {@code to} may leave the buffers: Java's fault. */
  @Kernel(workgroup = 64)
  static void anywhere(@Buffer(Access.READ) short[] in, @Buffer(Access.WRITE) short[] out, int from, int to) {
    if (Gpu.globalId(0) == 0) {
      System.arraycopy(in, from, out, to, 8);
    }
  }

  /**
   * A private array of shorts held as quads and stored into element by element (each store a read
   * and write of its word): half copied in, the other half and one of the copied elements stored,
   * all copied out.
   */
  @Kernel(workgroup = 64)
  static void shortsStoredIntoPrivate(@Buffer(Access.READ) short[] in, @Buffer(Access.WRITE) short[] out,
      int shift) {
    int i = Gpu.globalId(0);
    short[] mine = new short[16];
    System.arraycopy(in, i * 8 + shift, mine, 0, 8);
    for (int k = 0; k < 8; k++) {
      mine[8 + k] = (short) (mine[7 - k] * 3 + k);
    }
    mine[i % 8] = (short) -mine[i % 8];
    System.arraycopy(mine, 0, out, i * 16 + shift, 16);
  }
}
