package invalid;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;

/** Groups whose declarations are wrong, found before any body is read. */
public final class Groups {
  @Kernel
  @FuseGroup("not a name")
  static void spaced(float[] a) { // ERROR: [kiln.group.name]
    a[Gpu.globalId(0)] = 1f;
  }

  @Kernel
  @FuseGroup("spaced")
  static void clash(float[] a) { // ERROR: [kiln.group.name]
    a[Gpu.globalId(0)] = 2f;
  }

  @FuseGroup("post")
  static void helper(float[] a) { // ERROR: [kiln.group.notKernel]
    a[0] = 3f;
  }

  @Kernel
  @FuseGroup("crowded")
  static void many(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l) { // ERROR: [kiln.group.pushConstants]
  }

  @Kernel
  @FuseGroup("crowded")
  static void more(int m, int n, int o, int p, int q, int r, int s, int t, int u, int v, int w, int x) {
  }
}
