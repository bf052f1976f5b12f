package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia gaussian: Fan1 (the multipliers of column t) and Fan2 (the elimination step). */
final class Gaussian {
  static final double TOLERANCE = 0;
  static final int SIZE = 53;
  static final int T = 3;

  @Kernel(workgroup = 512)
  static void fan1(float[] m, float[] a, int size, int t) {
    int gid = Gpu.globalId(0);
    if (gid >= size - 1 - t) {
      return;
    }
    m[size * (gid + t + 1) + t] = a[size * (gid + t + 1) + t] / a[size * t + t];
  }

  static final int fan1Grid = SIZE;

  static Object[] fan1Args(Random r) {
    return new Object[] {new float[SIZE * SIZE], matrix(r), SIZE, T};
  }

  @Kernel(workgroup = {4, 4})
  static void fan2(float[] m, float[] a, float[] b, int size, int t) {
    int xidx = Gpu.globalId(0);
    int yidx = Gpu.globalId(1);
    if (xidx >= size - 1 - t) {
      return;
    }
    if (yidx >= size - t) {
      return;
    }
    a[size * (xidx + 1 + t) + (yidx + t)] -= m[size * (xidx + 1 + t) + t] * a[size * t + (yidx + t)];
    if (yidx == 0) {
      b[xidx + 1 + t] -= m[size * (xidx + 1 + t) + (yidx + t)] * b[t];
    }
  }

  static final int[] fan2Grid = {SIZE, SIZE};

  static Object[] fan2Args(Random r) {
    float[] b = new float[SIZE];
    for (int i = 0; i < SIZE; i++) {
      b[i] = r.nextFloat();
    }
    return new Object[] {matrix(r), matrix(r), b, SIZE, T};
  }

  private static float[] matrix(Random r) {
    float[] values = new float[SIZE * SIZE];
    for (int i = 0; i < values.length; i++) {
      values[i] = 1f + r.nextFloat();
    }
    return values;
  }
}
