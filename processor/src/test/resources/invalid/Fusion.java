package invalid;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import dev.kiln.matrix.MatrixAccumulator;
import dev.kiln.matrix.MatrixLayout;

/** Every fusion error, each in a group of its own: all are reported in one compile. */
public final class Fusion {
  // shifted: the later arm reads an element another invocation wrote
  @Kernel(workgroup = 256)
  @FuseGroup("shifted")
  static void write(float[] d) {
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = i;
    }
  }

  @Kernel(workgroup = 256)
  @FuseGroup("shifted")
  static void readNext(float[] d, float[] e) {
    int i = Gpu.globalId(0);
    if (i + 1 < d.length) {
      e[i] = d[i + 1]; // ERROR: [kiln.fusion.aliasing]
    }
  }

  // counted: an atomic counter, then an arm that reads it
  @Kernel
  @FuseGroup("counted")
  static void count(int[] counter, float[] v) {
    int i = Gpu.globalId(0);
    if (i < v.length && v[i] > 0) {
      Gpu.atomicAdd(counter, 0, 1);
    }
  }

  @Kernel
  @FuseGroup("counted")
  static void useCount(int[] counter, float[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = counter[0]; // ERROR: [kiln.fusion.aliasing]
    }
  }

  // mirrored: both arms write, at different lanes
  @Kernel
  @FuseGroup("mirrored")
  static void forward(int[] w) {
    int i = Gpu.globalId(0);
    if (i < w.length) {
      w[i] = 1;
    }
  }

  @Kernel
  @FuseGroup("mirrored")
  static void backward(int[] w) {
    int i = Gpu.globalId(0);
    if (i < w.length) {
      w[w.length - 1 - i] = 2; // ERROR: [kiln.fusion.aliasing]
    }
  }

  // looped: an index the analysis cannot follow
  @Kernel
  @FuseGroup("looped")
  static void produce(float[] p) {
    int i = Gpu.globalId(0);
    if (i < p.length) {
      p[i] = 3f;
    }
  }

  @Kernel
  @FuseGroup("looped")
  static void consume(float[] p, float[] q) {
    int i = Gpu.globalId(0);
    float sum = 0f;
    for (int k = 0; k < 4; k++) {
      if (i + k < p.length) {
        sum += p[i + k]; // ERROR: [kiln.fusion.aliasing]
      }
    }
    if (i < q.length) {
      q[i] = sum;
    }
  }

  // tall: {64} and {1, 5} fuse to {64, 5}, 320 invocations, over 4 x 64
  @Kernel(workgroup = 64)
  @FuseGroup("tall")
  static void flat(float[] a) {
    int i = Gpu.globalId(0);
    if (i < a.length) {
      a[i] = 1f;
    }
  }

  @Kernel(workgroup = {1, 5})
  @FuseGroup("tall") // ERROR: [kiln.fusion.overDispatch]
  static void column(float[] b) {
    int i = Gpu.globalId(0);
    if (i < b.length) {
      b[i] = 2f;
    }
  }

  // widened: a workgroup scan behind a wider elementwise arm
  @Kernel(workgroup = 256)
  @FuseGroup("widened")
  static void elementwise(int[] x) {
    int i = Gpu.globalId(0);
    if (i < x.length) {
      x[i] += 1;
    }
  }

  @Kernel(workgroup = 64)
  @FuseGroup("widened") // ERROR: [kiln.fusion.workgroupGeometry]
  static void scan(int[] y) {
    int[] tile = Gpu.sharedInts(64);
    int l = Gpu.localId(0);
    int i = Gpu.globalId(0);
    tile[l] = i < y.length ? y[i] : 0;
    Gpu.barrier();
    if (i < y.length) {
      y[i] = tile[63 - l];
    }
  }

  // stateful: a kernel that may not run twice in one dispatch
  @Kernel(selfComposable = false)
  @FuseGroup("stateful")
  @FuseGroup("stateful") // ERROR: [kiln.fusion.selfAliasing]
  static void cursor(int[] state) {
    int i = Gpu.globalId(0);
    if (i < state.length) {
      state[i] += 1;
    }
  }

  // typed: one name, two types
  @Kernel
  @FuseGroup("typed")
  static void floats(float[] z) {
    int i = Gpu.globalId(0);
    if (i < z.length) {
      z[i] = 0f;
    }
  }

  @Kernel
  @FuseGroup("typed") // ERROR: [kiln.fusion.typeConflict]
  static void ints(int[] z) {
    int i = Gpu.globalId(0);
    if (i < z.length) {
      z[i] = 0;
    }
  }

  // pastTile: the loop reads one element past the workgroup's tile, which another workgroup writes
  @Kernel(workgroup = 64)
  @FuseGroup("pastTile")
  static void writeTile(float[] t) {
    int i = Gpu.globalId(0);
    if (i < t.length) {
      t[i] = 1f;
    }
  }

  @Kernel(workgroup = 64)
  @FuseGroup("pastTile")
  static void readPastTile(float[] t, float[] sums) {
    int i = Gpu.globalId(0);
    float total = 0f;
    for (int k = 0; k <= 64; k++) {
      int at = Gpu.workgroupId(0) * 64 + k;
      if (at < t.length) {
        total += t[at]; // ERROR: [kiln.fusion.aliasing]
      }
    }
    if (i < sums.length) {
      sums[i] = total;
    }
  }

  // noisy: a real conflict on 'p', and on 'q' a pair the analysis cannot follow (i * w): only the
  // real one is reported; the other would show once 'p' is fixed
  @Kernel
  @FuseGroup("noisy")
  static void writeBoth(float[] p, float[] q, int w) {
    int i = Gpu.globalId(0);
    if (i < p.length && i * w < q.length) {
      p[i] = 1f;
      q[i * w] = 2f;
    }
  }

  @Kernel
  @FuseGroup("noisy")
  static void readBoth(float[] p, float[] q, float[] out, int w) {
    int i = Gpu.globalId(0);
    if (i + 1 < p.length && i * w < q.length && i < out.length) {
      out[i] = p[i + 1] // ERROR: [kiln.fusion.aliasing]
          + q[i * w];
    }
  }

  // neighbour: a 2-D pipeline whose second arm reads the pixel to the right, another invocation's
  @Kernel(workgroup = {16, 16})
  @FuseGroup("neighbour")
  static void writePixel(int rows, int cols, float[] img) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row < rows && col < cols) {
      img[row * cols + col] = 1f;
    }
  }

  @Kernel(workgroup = {16, 16})
  @FuseGroup("neighbour")
  static void readRight(int rows, int cols, float[] img, float[] out) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row < rows && col + 1 < cols) {
      out[row * cols + col] = img[row * cols + col + 1]; // ERROR: [kiln.fusion.aliasing]
    }
  }

  // unguarded: without col < cols, row * cols + col reaches the next row's first pixels
  @Kernel(workgroup = {16, 16})
  @FuseGroup("unguarded")
  static void writeAny(int cols, float[] img) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row * cols + col < img.length) {
      img[row * cols + col] = 1f;
    }
  }

  @Kernel(workgroup = {16, 16})
  @FuseGroup("unguarded")
  static void readAny(int cols, float[] img, float[] out) {
    int col = Gpu.globalId(0);
    int row = Gpu.globalId(1);
    if (row * cols + col < img.length) {
      out[row * cols + col] = img[row * cols + col] * 2f; // ERROR: [kiln.fusion.aliasing]
    }
  }

  // strideMismatch: the column is walked with the wrong stride, so columns overlap
  @Kernel(workgroup = 64)
  @FuseGroup("strideMismatch")
  static void writeColumn(int points, int features, float[] f) {
    int p = Gpu.globalId(0);
    if (p < points) {
      for (int k = 0; k < features; k++) {
        f[p + features * k] = 1f;
      }
    }
  }

  @Kernel(workgroup = 64)
  @FuseGroup("strideMismatch")
  static void readColumn(int points, int features, float[] f, float[] out) {
    int p = Gpu.globalId(0);
    if (p < points) {
      float total = 0f;
      for (int k = 0; k < features; k++) {
        total += f[p + features * k]; // ERROR: [kiln.fusion.aliasing]
      }
      out[p] = total;
    }
  }

  // pinnedRows: each arm's element per column is its own, but of the first row in one arm and of the
  // second in the other: other invocations
  @Kernel(workgroup = {16, 16})
  @FuseGroup("pinnedRows")
  static void firstRow(int cols, float[] a) {
    int col = Gpu.globalId(0);
    if (Gpu.globalId(1) == 0 && col < cols) {
      a[col] = 1f;
    }
  }

  @Kernel(workgroup = {16, 16})
  @FuseGroup("pinnedRows")
  static void secondRow(int cols, float[] a, float[] out) {
    int col = Gpu.globalId(0);
    if (Gpu.globalId(1) == 1 && col < cols) {
      out[col] = a[col]; // ERROR: [kiln.fusion.aliasing]
    }
  }

  // tiles: an arm with cooperative matrices
  @Kernel(workgroup = {32})
  @FuseGroup("tiles")
  static void scaleAll(float[] t) {
    int i = Gpu.globalId(0);
    if (i < t.length) {
      t[i] *= 2f;
    }
  }

  @Kernel(workgroup = {32})
  @FuseGroup("tiles") // ERROR: [kiln.fusion.matrices]
  static void zeroTile(float[] t) {
    MatrixAccumulator zero = Gpu.fillAccumulator(0f);
    Gpu.storeAccumulator(zero, t, Gpu.workgroupId(0) * 256, 16, MatrixLayout.ROW_MAJOR);
  }

  // copies: an arm that copies a range of what an earlier arm writes
  @Kernel(workgroup = {32})
  @FuseGroup("copies")
  static void scaleFirst(float[] t) {
    int i = Gpu.globalId(0);
    if (i < t.length) {
      t[i] *= 2f;
    }
  }

  @Kernel(workgroup = {32})
  @FuseGroup("copies")
  static void shiftPairs(float[] t, float[] u) {
    int i = Gpu.globalId(0);
    if (2 * i + 2 <= t.length) {
      System.arraycopy(t, 2 * i, u, 2 * i, 2); // ERROR: [kiln.fusion.aliasing]
    }
  }
}
