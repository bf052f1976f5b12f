package dev.kiln.bench;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The GLSL twin {@code glsl/gemvhjava.comp} written in Kiln, and the same with one of the library
 * lane's features at a time, so that {@link GemvTwinBench} {@code lanes} can tell whether Kiln's
 * lane is slower than its twin for its code generation or for what the library's lane does beyond
 * the twin. Each gives the library's bits ({@code Gemv.halves}): lane {@code j} adds the 32-byte
 * chunks {@code j, j + 32, ...} of its row in column order, reading the next chunk before it adds
 * this one's, and the lanes' partials fold as a tree by shuffles down. Rows of float16 bits, {@code
 * cols} a multiple of 16.
 */
final class GemvLanes {
  private static final int CHUNK = 16;
  private static final int STEP = 32 * CHUNK;

  private GemvLanes() {}

  /**
   * The twin: a 1-D workgroup of 8 warps, warp {@code w} on row {@code 8 · group + w} (its launches
   * keep their bounds checks: a whole number of workgroups may pass the last row).
   */
  @Kernel(workgroup = 256)
  static void twin(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets) {
    int cols = octets * 8;
    int lane = Gpu.localId(0) & 31;
    int row = Gpu.workgroupId(0) * 8 + (Gpu.localId(0) >> 5);
    float partial = row < rows ? lanePartial(a, x, row * cols, cols, lane, 0) : 0f;
    float v = fold(partial);
    if (lane == 0 && row < rows) {
      y[row] = v;
    }
  }

  /** {@link #twinGrid} with the library's run-time choice of float16 or bfloat16 (0 here). */
  @Kernel(workgroup = {32, 8})
  static void twinKinds(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets,
      int bfloat) {
    gridRow(a, x, y, rows, octets, bfloat);
  }

  /** {@link #twin} over the library's grid: workgroups of 32 x 8, row {@code globalId(1)}. */
  @Kernel(workgroup = {32, 8})
  static void twinGrid(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets) {
    gridRow(a, x, y, rows, octets, 0);
  }

  /**
   * Row {@code globalId(1)} over the library's grid, of bfloat16 bits where {@code bfloat} is not
   * 0: {@link #twinGrid} passes the type as a literal, {@link #twinKinds} as a launch's scalar.
   */
  private static void gridRow(short[] a, float[] x, float[] y, int rows, int octets, int bfloat) {
    int cols = octets * 8;
    int lane = Gpu.localId(0);
    int row = Gpu.globalId(1);
    float partial = row < rows ? lanePartial(a, x, row * cols, cols, lane, bfloat) : 0f;
    float v = fold(partial);
    if (lane == 0 && row < rows) {
      y[row] = v;
    }
  }

  /**
   * The 16-byte GLSL twin ({@code glsl/gemvhjava16.comp}) over the library's grid: lane {@code j}
   * adds the 16-byte chunks (8 halves) {@code j, j + 32, ...} of its row in column order, reading
   * the next before it adds this one's; its own bits (another order than the 32-byte kernels').
   */
  @Kernel(workgroup = {32, 8})
  static void twinGrid16(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets) {
    grid16Row(a, x, y, rows, octets, 0);
  }

  /**
   * {@link #twinGrid16} decoding each element by {@code Float.float16ToFloat} as the processor
   * lowers it, where {@link #twinGrid16} calls the library's decoding.
   */
  @Kernel(workgroup = {32, 8})
  static void twinGrid16j(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets) {
    grid16Row(a, x, y, rows, octets, 1);
  }

  /**
   * {@link #twinGrid16} decoding each element by {@code Gpu.float16ToFloat}: the device's
   * conversion where it keeps float16 subnormals.
   */
  @Kernel(workgroup = {32, 8})
  static void twinGrid16g(
      @Buffer(Access.READ) short[] a,
      @Buffer(Access.READ) float[] x,
      @Buffer(Access.WRITE) float[] y,
      int rows,
      int octets) {
    grid16Row(a, x, y, rows, octets, 2);
  }

  /**
   * Row {@code globalId(1)} in 16-byte chunks, each element decoded by {@link #half} where {@code
   * jdk} (a literal at each call) is 0, by {@code Float.float16ToFloat} where it is 1, by {@code
   * Gpu.float16ToFloat} where it is 2.
   */
  private static void grid16Row(short[] a, float[] x, float[] y, int rows, int octets, int jdk) {
    int cols = octets * 8;
    int lane = Gpu.localId(0);
    int row = Gpu.globalId(1);
    float partial = 0f;
    if (row < rows) {
      int start = row * cols;
      short[] chunk = new short[8];
      short[] next = new short[8];
      float[] xs = new float[8];
      if (lane * 8 < cols) {
        System.arraycopy(a, start + lane * 8, next, 0, 8);
      }
      for (int c = lane * 8; c < cols; c += 32 * 8) {
        System.arraycopy(next, 0, chunk, 0, 8);
        if (c + 32 * 8 < cols) {
          System.arraycopy(a, start + c + 32 * 8, next, 0, 8);
        }
        System.arraycopy(x, c, xs, 0, 8);
        if (jdk == 0) {
          for (int k = 0; k < 8; k++) {
            partial += half(chunk[k]) * xs[k];
          }
        } else if (jdk == 1) {
          for (int k = 0; k < 8; k++) {
            partial += Float.float16ToFloat(chunk[k]) * xs[k];
          }
        } else {
          for (int k = 0; k < 8; k++) {
            partial += Gpu.float16ToFloat(chunk[k]) * xs[k];
          }
        }
      }
    }
    float v = fold(partial);
    if (lane == 0 && row < rows) {
      y[row] = v;
    }
  }

  /** Lane {@code lane}'s partial of the row at {@code start}, whole chunks only. */
  private static float lanePartial(
      short[] a, float[] x, int start, int cols, int lane, int bfloat) {
    float partial = 0f;
    short[] chunk = new short[CHUNK];
    short[] next = new short[CHUNK];
    float[] xs = new float[CHUNK];
    if (lane * CHUNK <= cols - CHUNK) {
      System.arraycopy(a, start + lane * CHUNK, next, 0, CHUNK);
    }
    for (int c = lane * CHUNK; c <= cols - CHUNK; c += STEP) {
      System.arraycopy(next, 0, chunk, 0, CHUNK);
      if (c <= cols - CHUNK - STEP) {
        System.arraycopy(a, start + c + STEP, next, 0, CHUNK);
      }
      System.arraycopy(x, c, xs, 0, CHUNK);
      if (bfloat == 0) {
        for (int k = 0; k < CHUNK; k++) {
          partial += half(chunk[k]) * xs[k];
        }
      } else {
        for (int k = 0; k < CHUNK; k++) {
          partial += Float.intBitsToFloat(chunk[k] << 16) * xs[k];
        }
      }
    }
    return partial;
  }

  /**
   * The library's float16 decoding until session 39 ({@code SixteenBits.half}), now {@code
   * Gpu.float16ToFloat}'s form where the device's conversion would flush subnormals.
   */
  private static float half(short bits) {
    float scaled = Float.intBitsToFloat(((bits << 13) & 0x0fffe000) | (224 << 23)) * 0x1p-112f;
    float small = Gpu.fma(scaled, 2f, -0x1p-14f);
    float magnitude = small < scaled ? small : scaled;
    return Float.intBitsToFloat(Float.floatToRawIntBits(magnitude) | (bits & 0x80000000));
  }

  /** The lanes' partials summed as a tree by shuffles down; lane 0 holds the sum. */
  private static float fold(float partial) {
    float v = partial;
    for (int s = 16; s > 0; s >>= 1) {
      float above = Gpu.subgroupShuffleDown(v, s);
      v += above;
    }
    return v;
  }
}
