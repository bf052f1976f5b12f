package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** SHOC Triad (C = A + s B), with the stream copy and scale before it as one fused group. */
final class Triad {
  static final double TOLERANCE = 0;
  static final int N = 10_007;

  // expect stream: fuses
  @Kernel(workgroup = 128)
  @FuseGroup("stream")
  static void copy(float[] a, float[] b) {
    int gid = Gpu.globalId(0);
    if (gid < a.length && gid < b.length) {
      b[gid] = a[gid];
    }
  }

  static final int copyGrid = N;

  static Object[] copyArgs(Random r) {
    return new Object[] {floats(r), new float[N]};
  }

  @Kernel(workgroup = 128)
  @FuseGroup("stream")
  static void scale(float[] b, float s) {
    int gid = Gpu.globalId(0);
    if (gid < b.length) {
      b[gid] = s * b[gid];
    }
  }

  static final int scaleGrid = N;

  static Object[] scaleArgs(Random r) {
    return new Object[] {floats(r), 1.75f};
  }

  @Kernel(workgroup = 128)
  @FuseGroup("stream")
  static void triad(float[] a, float[] b, float[] c, float s) {
    int gid = Gpu.globalId(0);
    if (gid < c.length && gid < a.length && gid < b.length) {
      c[gid] = a[gid] + s * b[gid];
    }
  }

  static final int triadGrid = N;

  static Object[] triadArgs(Random r) {
    return new Object[] {floats(r), floats(r), new float[N], 1.75f};
  }

  static final int streamGroupGrid = N;

  static Object[] streamGroupArgs(Random r) {
    return new Object[] {floats(r), new float[N], 1.75f, new float[N]};
  }

  private static float[] floats(Random r) {
    float[] values = new float[N];
    for (int i = 0; i < N; i++) {
      values[i] = r.nextFloat() * 4f - 2f;
    }
    return values;
  }
}
