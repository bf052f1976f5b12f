package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

/** Small kernels for the corners: each writes one int per invocation into {@code out}. */
public final class Misc {
  static final int LIMIT = 1 << 20;
  static final float HALF = 0.5f;

  @Kernel
  static void booleans(@Buffer(Access.READ) int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length) {
      boolean even = (in[i] & 1) == 0;
      boolean big = in[i] > LIMIT;
      boolean both = even & big;
      boolean either = even | big;
      boolean one = even ^ big;
      out[i] = (both ? 1 : 0) + (either ? 2 : 0) + (one ? 4 : 0) + (!even ? 8 : 0) + (even == big ? 16 : 0);
    }
  }

  @Kernel
  static void compoundOnArrays(int[] data, float[] values, int k) {
    int i = Gpu.globalId(0);
    if (i < data.length) {
      data[i] += k;
      data[i] *= 3;
      data[i] -= i;
      data[i] <<= 2;
      data[i] >>= 1;
      data[i] >>>= 1;
      data[i] ^= 0x5a5a;
      data[i] |= 1;
      data[i] &= ~2;
      data[i] %= 1000;
      data[i]++;
      --data[i];
      values[i] += data[i];
      values[i] *= HALF;
      values[i] /= 3;
      values[i] -= 1.25f;
      values[i]++;
    }
  }

  @Kernel
  static void implicitNarrowing(float[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length) {
      int v = 7;
      v += in[i];
      v *= 2.5f;
      v -= in[i] * 1e9f;
      out[i] = v;
    }
  }

  @Kernel
  static void varLocalsAndScopes(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length) {
      var total = 0;
      for (int k = 0; k < 3; k++) {
        var t = in[i] >> k;
        total += t;
      }
      for (int k = 0; k < 2; k++) {
        var t = k * 100;
        total -= t;
      }
      {
        int block = total * 2;
        total = block + 1;
      }
      out[i] = total;
    }
  }

  @Kernel
  static void whileWithComplexCondition(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length) {
      int v = in[i];
      int steps = 0;
      while ((v > 10 || v < -10) && steps < 40 && v != 17) {
        v = v / 3 + (v % 2);
        steps++;
      }
      do {
        steps += 100;
      } while (steps < 0);
      out[i] = v * 1000 + steps;
    }
  }

  @Kernel
  static void constantsFromOtherClasses(float[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length) {
      float x = in[i];
      int bits = Float.floatToIntBits(x + Float.MIN_NORMAL); // x * MIN_NORMAL would be subnormal: NVIDIA flushes those
      out[i] = bits + Integer.SIZE + Short.MAX_VALUE + Byte.MIN_VALUE + (int) (x * (float) Math.E) + Character.MAX_RADIX;
    }
  }

  @Kernel
  static void assignedScalarParameters(int[] out, int a, float b) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      a += i;
      b *= i;
      out[i] = a + (int) b;
    }
  }

  @Kernel(workgroup = {4, 4, 4})
  static void threeAxes(int[] out, int width, int height) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    int z = Gpu.globalId(2);
    out[(z * height + y) * width + x] = x + 100 * y + 10000 * z + 1000000 * Gpu.localId(2)
        + 10000000 * (Gpu.workgroupId(1) + Gpu.numWorkgroups(2));
  }

  @Kernel(workgroup = 1)
  static void workgroupOfOne(int[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = Gpu.numWorkgroups(0) - Gpu.workgroupId(0) + Gpu.localId(0);
    }
  }

  @Kernel(workgroup = 1024)
  static void largestWorkgroup(int[] out) {
    int i = Gpu.globalId(0);
    if (i < out.length) {
      out[i] = Gpu.localId(0) * 3 + Gpu.workgroupId(0);
    }
  }

  @Kernel
  static void earlyReturns(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length) {
      return;
    }
    out[i] = 1;
    if (in[i] < 0) {
      out[i] = 2;
      return;
    }
    for (int k = 0; k < 32; k++) {
      if ((in[i] >>> k) == 1) {
        out[i] = 10 + k;
        return;
      }
    }
    out[i] = 3;
  }

  @Kernel
  static void nestedConditionals(float[] in, float[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length) {
      float x = in[i];
      out[i] = x > 0 ? (x > 10 ? x / 2 : x * 2) : (x < -10 ? -x : x != x ? 0f : x - 1);
    }
  }

  /** An atomic's previous value widened into long, float and double locals, as Java widens an int. */
  @Kernel
  static void atomicResultsWidened(int[] counts, long[] asLong, float[] asFloat, double[] asDouble) {
    int i = Gpu.globalId(0);
    if (i < asLong.length && i < asFloat.length && i < asDouble.length && counts.length > 0) {
      long previous = Gpu.atomicAdd(counts, 0, 1);
      float asF = Gpu.atomicMax(counts, 0, i);
      double asD;
      asD = Gpu.atomicOr(counts, 0, 0);
      asLong[i] = previous;
      asFloat[i] = asF;
      asDouble[i] = asD;
    }
  }

  /**
   * Library calls that use an argument several times, nested ten deep: each argument is evaluated
   * once, so the module grows linearly with the depth (it grew about 4x per level).
   */
  @Kernel
  static void nestedLibraryCalls(int[] a, float[] f, int[] out) {
    int i = Gpu.globalId(0);
    if (i < a.length && i < f.length && i < out.length) {
      int x = a[i];
      out[i] = Math.floorMod(Math.floorMod(Math.floorMod(Math.floorMod(Math.floorMod(Math.floorMod(Math.floorMod(
          Math.floorMod(Math.floorMod(Math.floorMod(x, 97) + a[(i + 1) % a.length], x | 1), 31), x >> 3 | 1), 1 << 20),
          Integer.rotateLeft(x, i) | 1), Math.floorDiv(x, 7) | 1), Integer.signum(x) | 2), 12345),
          Integer.highestOneBit(Integer.lowestOneBit(x) + Integer.rotateRight(x, x)) | 1)
          + (Float.isFinite(f[i] * f[i]) ? 1 : 0);
    }
  }
}
