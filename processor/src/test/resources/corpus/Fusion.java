package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/** Fuse groups that are safe, each showing one way arms may share buffers. */
public final class Fusion {
  static final int WIDTH = 64;

  // post: the design's example; same-lane read-after-write, scalars shared by name
  @Kernel(workgroup = 256)
  @FuseGroup("post")
  static void scale(@Buffer(Access.READ_WRITE) float[] data, float s) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] = data[i] * s;
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("post")
  @FuseGroup(value = "twice", order = 1)
  static void clamp(@Buffer(Access.READ_WRITE) float[] data, float lo, float hi) {
    int i = Gpu.globalId(0);
    if (i >= data.length) {
      return; // ends this arm only
    }
    data[i] = Math.min(Math.max(data[i], lo), hi);
  }

  // twice: one kernel twice (repeatable annotation), order puts the offset first
  @Kernel(workgroup = 64)
  @FuseGroup("twice")
  @FuseGroup(value = "twice", order = 2)
  static void offset(float[] data, float s) {
    int i = Gpu.globalId(0);
    int j = i;
    if (j < data.length) {
      data[j] += s;
    }
  }

  // lanes: write-after-write and read-after-write on the same lane, through locals assigned once;
  // an arm that returns early for some invocations, and a later arm that must still run for them
  @Kernel
  @FuseGroup("lanes")
  static void square(float[] x, float[] y) {
    int i = Gpu.globalId(0);
    if (i % 3 == 0) {
      return;
    }
    if (i < x.length) {
      y[i] = x[i] * x[i];
    }
  }

  @Kernel(workgroup = 128)
  @FuseGroup("lanes")
  static void overwrite(float[] y, int[] marks) {
    int i = Gpu.globalId(0);
    int k = i * 1;
    if (k < y.length) {
      y[k] = y[k] + 1f;
      marks[k] = 1;
    }
  }

  // mirror: reversal inside each workgroup; needs a workgroup barrier between the arms
  @Kernel(workgroup = WIDTH)
  @FuseGroup("mirror")
  static void fill(int[] a, int base) {
    int i = Gpu.globalId(0);
    if (i < a.length) {
      a[i] = base + i;
    }
  }

  @Kernel(workgroup = WIDTH)
  @FuseGroup("mirror")
  static void reverse(int[] a, int[] out) {
    int i = Gpu.globalId(0);
    int partner = Gpu.workgroupId(0) * WIDTH + (WIDTH - 1 - Gpu.localId(0));
    if (i < out.length && partner < a.length) {
      out[i] = a[partner];
    }
  }

  // wide: a 1-D arm and a 2-D arm within the over-dispatch limit ({64} and {1, 4} fuse to {64, 4})
  @Kernel(workgroup = 64)
  @FuseGroup("wide")
  static void rowSum(float[] m, float[] sums, int width) {
    int row = Gpu.globalId(0);
    if (row < sums.length) {
      float sum = 0f;
      for (int c = 0; c < width; c++) {
        sum += m[row * width + c];
      }
      sums[row] = sum;
    }
  }

  @Kernel(workgroup = {1, 4})
  @FuseGroup("wide")
  static void tally(int[] counts) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    if (x < counts.length && y < 2) {
      Gpu.atomicAdd(counts, x, 1 + y);
    }
  }

  // scan: a workgroup scan (barriers, shared memory) fused with an elementwise arm of its width
  @Kernel(workgroup = WIDTH)
  @FuseGroup("scan")
  static void prefix(int[] values, int[] sums) {
    int[] tile = Gpu.sharedInts(WIDTH);
    int i = Gpu.globalId(0);
    int l = Gpu.localId(0);
    tile[l] = i < values.length ? values[i] : 0;
    Gpu.barrier();
    for (int step = 1; step < WIDTH; step *= 2) {
      int add = l >= step ? tile[l - step] : 0;
      Gpu.barrier();
      tile[l] += add;
      Gpu.barrier();
    }
    if (i < sums.length) {
      sums[i] = tile[l];
    }
  }

  @Kernel(workgroup = WIDTH)
  @FuseGroup("scan")
  static void doubled(int[] sums, int[] twice) {
    int i = Gpu.globalId(0);
    if (i < twice.length && i < sums.length) {
      twice[i] = 2 * sums[i] + Gpu.numWorkgroups(0);
    }
  }

  // solo: a group of one arm
  @Kernel
  @FuseGroup("solo")
  static void negate(float[] v) {
    int i = Gpu.globalId(0);
    if (i < v.length) {
      v[i] = -v[i];
    }
  }

  // faulty: the second arm writes out of bounds when asked to; the group reports it as Java would
  @Kernel(workgroup = 128)
  @FuseGroup("faulty")
  static void halve(float[] values) {
    int i = Gpu.globalId(0);
    if (i < values.length) {
      values[i] = values[i] * 0.5f;
    }
  }

  @Kernel(workgroup = 128)
  @FuseGroup("faulty")
  static void spill(float[] out, int offset) {
    out[Gpu.globalId(0) + offset] = 1f;
  }

  // tiles: each workgroup sums its own tile of what the first arm wrote, read with a loop counter;
  // the bounds analysis proves every read inside the workgroup's range: a workgroup barrier orders it
  @Kernel(workgroup = WIDTH)
  @FuseGroup("tiles")
  static void scaleTile(float[] a, float[] x) {
    int i = Gpu.globalId(0);
    if (i < a.length && i < x.length) {
      a[i] = x[i] * 2f;
    }
  }

  @Kernel(workgroup = WIDTH)
  @FuseGroup("tiles")
  static void sumTile(float[] a, float[] sums) {
    int i = Gpu.globalId(0);
    float total = 0f;
    for (int k = 0; k < WIDTH; k++) {
      int at = Gpu.workgroupId(0) * WIDTH + k;
      if (at < a.length) {
        total += a[at];
      }
    }
    if (i < sums.length) {
      sums[i] = total;
    }
  }

  // pixels: a per-pixel pipeline over a row-major image. Each arm touches only its own pixel,
  // row * cols + col with col < cols, which makes distinct invocations' pixels distinct: the group
  // fuses without a barrier (the launch keeps cols × height ≤ 2^32 and a depth of 1)
  @Kernel(workgroup = {16, 16})
  @FuseGroup("pixels")
  static void brighten(int rows, int cols, float[] image, float[] lit, float gain) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row < rows && col < cols) {
      int at = row * cols + col;
      lit[at] = image[at] * gain;
    }
  }

  @Kernel(workgroup = {16, 16})
  @FuseGroup("pixels")
  static void threshold(int rows, int cols, float[] lit, int[] mask, float level) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row < rows && col < cols) {
      mask[row * cols + col] = lit[row * cols + col] > level ? 1 : 0;
      lit[row * cols + col] += 1f;
    }
  }

  // columns: each invocation walks its own strided column with a loop counter, as Rodinia's kmeans
  // lays out its features; the second arm reads only what the same invocation of the first wrote
  @Kernel(workgroup = WIDTH)
  @FuseGroup("columns")
  static void transpose(int points, int features, float[] table, float[] flipped) {
    int p = Gpu.globalId(0);
    if (p < points) {
      for (int k = 0; k < features; k++) {
        flipped[p + points * k] = table[p * features + k];
      }
    }
  }

  @Kernel(workgroup = WIDTH)
  @FuseGroup("columns")
  static void columnSums(int points, int features, float[] flipped, float[] sums) {
    int p = Gpu.globalId(0);
    if (p < points) {
      float total = 0f;
      for (int j = 0; j < features; j++) {
        total += flipped[p + points * j];
        flipped[p + points * j] = total;
      }
      sums[p] = total;
    }
  }
}
