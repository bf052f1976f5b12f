package dev.kiln.bench;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/**
 * The suite's workloads beyond elementwise ones: an int sum reduction through workgroup memory, a
 * 5-point stencil on a 2-D grid, and a tiled matrix product. Their GLSL twins ({@link GlslTwins})
 * are the same algorithms.
 */
final class Workgroups {
  static final int TILE = 16;

  private Workgroups() {}

  /** Adds {@code values} into {@code total[0]}: a tree sum per workgroup, then one atomic add. */
  @Kernel(workgroup = 256)
  static void sum(@Buffer(Access.READ) int[] values, int[] total) {
    int[] partial = Gpu.sharedInts(256);
    int i = Gpu.globalId(0);
    int l = Gpu.localId(0);
    partial[l] = i < values.length ? values[i] : 0;
    Gpu.barrier();
    for (int stride = 128; stride > 0; stride >>= 1) {
      if (l < stride) {
        partial[l] += partial[l + stride];
      }
      Gpu.barrier();
    }
    if (l == 0) {
      Gpu.atomicAdd(total, 0, partial[0]);
    }
  }
  /** {@link #sum} without index checks: what Kiln's checks cost. */
  @Kernel(workgroup = 256, boundsChecks = false)
  static void sumUnchecked(@Buffer(Access.READ) int[] values, int[] total) {
    int[] partial = Gpu.sharedInts(256);
    int i = Gpu.globalId(0);
    int l = Gpu.localId(0);
    partial[l] = i < values.length ? values[i] : 0;
    Gpu.barrier();
    for (int stride = 128; stride > 0; stride >>= 1) {
      if (l < stride) {
        partial[l] += partial[l + stride];
      }
      Gpu.barrier();
    }
    if (l == 0) {
      Gpu.atomicAdd(total, 0, partial[0]);
    }
  }

  /** {@code out = 0.5 in + 0.125 (sum of the 4 neighbours)} inside the grid; the border is copied. */
  @Kernel(workgroup = {TILE, TILE})
  static void stencil(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int width, int height) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    if (x < width && y < height) {
      int i = y * width + x;
      if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
      } else {
        out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
      }
    }
  }
  /** {@link #stencil} without index checks: what Kiln's checks cost. */
  @Kernel(workgroup = {TILE, TILE}, boundsChecks = false)
  static void stencilUnchecked(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out, int width,
      int height) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    if (x < width && y < height) {
      int i = y * width + x;
      if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
      } else {
        out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
      }
    }
  }

  /** {@code c = a * b} for n x n row-major matrices, 16 x 16 tiles of both in workgroup memory. */
  @Kernel(workgroup = {TILE, TILE})
  static void sgemm(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b, @Buffer(Access.WRITE) float[] c,
      int n) {
    float[] tileA = Gpu.sharedFloats(TILE * TILE);
    float[] tileB = Gpu.sharedFloats(TILE * TILE);
    int column = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    float sum = 0f;
    for (int t = 0; t < n; t += TILE) {
      tileA[y * TILE + x] = row < n && t + x < n ? a[row * n + t + x] : 0f;
      tileB[y * TILE + x] = column < n && t + y < n ? b[(t + y) * n + column] : 0f;
      Gpu.barrier();
      for (int j = 0; j < TILE; j++) {
        sum += tileA[y * TILE + j] * tileB[j * TILE + x];
      }
      Gpu.barrier();
    }
    if (row < n && column < n) {
      c[row * n + column] = sum;
    }
  }
  /** {@link #sgemm} without index checks: what Kiln's checks cost. */
  @Kernel(workgroup = {TILE, TILE}, boundsChecks = false)
  static void sgemmUnchecked(@Buffer(Access.READ) float[] a, @Buffer(Access.READ) float[] b,
      @Buffer(Access.WRITE) float[] c, int n) {
    float[] tileA = Gpu.sharedFloats(TILE * TILE);
    float[] tileB = Gpu.sharedFloats(TILE * TILE);
    int column = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    float sum = 0f;
    for (int t = 0; t < n; t += TILE) {
      tileA[y * TILE + x] = row < n && t + x < n ? a[row * n + t + x] : 0f;
      tileB[y * TILE + x] = column < n && t + y < n ? b[(t + y) * n + column] : 0f;
      Gpu.barrier();
      for (int j = 0; j < TILE; j++) {
        sum += tileA[y * TILE + j] * tileB[j * TILE + x];
      }
      Gpu.barrier();
    }
    if (row < n && column < n) {
      c[row * n + column] = sum;
    }
  }

  /** The inclusive prefix sum of each workgroup's 256 ints (Hillis-Steele in workgroup memory). */
  @Kernel(workgroup = 256)
  static void scan(@Buffer(Access.READ) int[] values, @Buffer(Access.WRITE) int[] sums) {
    int[] buffer = Gpu.sharedInts(256);
    int i = Gpu.globalId(0);
    int l = Gpu.localId(0);
    buffer[l] = i < values.length ? values[i] : 0;
    Gpu.barrier();
    for (int offset = 1; offset < 256; offset <<= 1) {
      int add = l >= offset ? buffer[l - offset] : 0;
      Gpu.barrier();
      buffer[l] += add;
      Gpu.barrier();
    }
    if (i < sums.length) {
      sums[i] = buffer[l];
    }
  }

  /** Counts the low bytes of {@code values} into 256 bins: in workgroup memory, then one atomic add per bin. */
  @Kernel(workgroup = 256)
  static void histogram(@Buffer(Access.READ) int[] values, int[] bins) {
    int[] counts = Gpu.sharedInts(256);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    counts[l] = 0;
    Gpu.barrier();
    if (i < values.length) {
      Gpu.atomicAdd(counts, values[i] & 255, 1);
    }
    Gpu.barrier();
    Gpu.atomicAdd(bins, l, counts[l]);
  }
}
