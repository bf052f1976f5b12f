package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Arrays of the invocation's own: new T[N], initializers, zeroing where the declaration runs. */
public final class PrivateArrays {
  static final int GROUP = 4;

  /** Each invocation sorts its group of four values (insertion sort in a private array). */
  @Kernel
  static void sortGroups(float[] in, float[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length / GROUP) {
      return;
    }
    float[] v = new float[GROUP];
    for (int k = 0; k < GROUP; k++) {
      v[k] = in[GROUP * i + k];
    }
    for (int a = 1; a < v.length; a++) {
      float key = v[a];
      int b = a - 1;
      while (b >= 0 && v[b] > key) {
        v[b + 1] = v[b];
        b--;
      }
      v[b + 1] = key;
    }
    for (int k = 0; k < GROUP; k++) {
      out[GROUP * i + k] = v[k];
    }
  }

  @Kernel
  static void weights(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length) {
      return;
    }
    int[] w = {3, 1, 4, 1, 5};
    int[] counts = new int[8];
    for (int r = 0; r < 3; r++) {
      int[] scratch = new int[2];
      scratch[r % 2] += in[i] + r;
      counts[r] = scratch[0] - scratch[1];
    }
    int s = 0;
    for (int k = 0; k < w.length; k++) {
      s += w[k] * ((in[i] >> k) & 1);
    }
    out[i] = s * 1000 + counts[0] + counts[1] * 7 + counts[2] * 13 + counts[7];
  }

  @Kernel
  static void outOfBounds(int[] out, int k) {
    int i = Gpu.globalId(0);
    int[] a = new int[4];
    a[k] = 1;
    out[i] = a[0];
  }
}
