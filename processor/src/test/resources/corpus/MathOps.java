package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Library calls: the exact ones must match Java bit for bit, the transcendental ones within bounds. */
public final class MathOps {
  static final int FLOAT_RESULTS = 8;
  static final int INT_RESULTS = 20;

  @Kernel
  static void exact(float[] a, float[] b, int[] p, int[] q, float[] floats, int[] ints) {
    int i = Gpu.globalId(0);
    int n = a.length;
    if (i >= n) {
      return;
    }
    float x = a[i];
    float y = b[i];
    int u = p[i];
    int v = q[i];
    floats[i] = Math.min(x, y);
    floats[n + i] = Math.max(x, y);
    floats[2 * n + i] = Math.abs(x);
    floats[3 * n + i] = Math.signum(x);
    floats[4 * n + i] = Gpu.floor(x);
    floats[5 * n + i] = Gpu.ceil(x);
    floats[6 * n + i] = Float.intBitsToFloat(u);
    floats[7 * n + i] = Float.min(x, 0f) + Float.max(y, -0f);
    ints[i] = Math.round(x);
    ints[n + i] = Float.floatToIntBits(x);
    ints[2 * n + i] = Float.floatToRawIntBits(y);
    ints[3 * n + i] = Math.min(u, v);
    ints[4 * n + i] = Math.max(u, v);
    ints[5 * n + i] = Math.abs(u);
    ints[6 * n + i] = Math.floorMod(u, v == 0 ? 7 : v);
    ints[7 * n + i] = Math.floorDiv(u, v == 0 ? 7 : v);
    ints[8 * n + i] = Integer.bitCount(u);
    ints[9 * n + i] = Integer.numberOfLeadingZeros(u >>> (v & 31));
    ints[10 * n + i] = Integer.numberOfTrailingZeros(u << (v & 31));
    ints[11 * n + i] = Integer.reverse(u);
    ints[12 * n + i] = Integer.rotateLeft(u, v);
    ints[13 * n + i] = Integer.rotateRight(u, v);
    ints[14 * n + i] = Integer.highestOneBit(u >>> (v & 31));
    ints[15 * n + i] = Integer.lowestOneBit(u);
    ints[16 * n + i] = Integer.signum(u) + Integer.max(u, 3) - Integer.min(v, -3);
    ints[17 * n + i] = Float.isNaN(x) ? 1 : 0;
    ints[18 * n + i] = Float.isInfinite(x) ? 1 : 0;
    ints[19 * n + i] = Float.isFinite(y) ? 1 : 0;
  }

  /** Transcendental functions on inputs in their usual ranges; out has 12 results per element. */
  @Kernel
  static void transcendental(float[] a, float[] b, float[] out) {
    int i = Gpu.globalId(0);
    int n = a.length;
    if (i < n) {
      float x = a[i];
      float y = b[i];
      out[i] = Gpu.sqrt(y);
      out[n + i] = Gpu.inverseSqrt(y);
      out[2 * n + i] = Gpu.exp(x);
      out[3 * n + i] = Gpu.exp2(x);
      out[4 * n + i] = Gpu.log(y);
      out[5 * n + i] = Gpu.log2(y);
      out[6 * n + i] = Gpu.pow(y, x);
      out[7 * n + i] = Gpu.sin(x);
      out[8 * n + i] = Gpu.cos(x);
      out[9 * n + i] = Gpu.tanh(x);
      out[10 * n + i] = Gpu.atan2(x, y);
      out[11 * n + i] = Gpu.fma(x, y, 1f);
    }
  }

  /** Integer and Float methods Kiln composes, each exactly as the JDK computes it. */
  @Kernel
  static void composed(int[] a, int[] b, float[] x, float[] y, int[] ints, float[] floats) {
    int i = Gpu.globalId(0);
    if (i < a.length && i < b.length && i < x.length && i < y.length && 8 * i + 7 < ints.length
        && 5 * i + 4 < floats.length) {
      int p = a[i];
      int q = b[i] | 1;
      ints[8 * i] = Integer.reverseBytes(p);
      ints[8 * i + 1] = Integer.compare(p, b[i]) + 3 * Integer.compareUnsigned(p, b[i]);
      ints[8 * i + 2] = Integer.divideUnsigned(p, q);
      ints[8 * i + 3] = Integer.remainderUnsigned(p, q);
      ints[8 * i + 4] = (int) (Integer.toUnsignedLong(p) >>> 16) + Integer.sum(p, q);
      ints[8 * i + 5] = Float.compare(x[i], y[i]);
      ints[8 * i + 6] = Math.getExponent(x[i]);
      ints[8 * i + 7] = Float.compare(x[i], x[i]);
      floats[5 * i] = Math.copySign(x[i], y[i]);
      floats[5 * i + 1] = Math.nextUp(x[i]);
      floats[5 * i + 2] = Math.nextDown(x[i]);
      floats[5 * i + 3] = Math.ulp(x[i]);
      floats[5 * i + 4] = Float.sum(x[i], y[i]);
    }
  }

  /** Long and Double methods, composed from int ones on the halves or from the bits, exactly as the JDK's. */
  @Kernel
  static void longsAndDoubles(long[] a, double[] d, int[] ints, long[] longs, double[] doubles) {
    int i = Gpu.globalId(0);
    if (i < a.length && i < d.length && 6 * i + 5 < ints.length && 7 * i + 6 < longs.length && 3 * i + 2 < doubles.length) {
      long x = a[i];
      long y = a[(i + 1) % a.length];
      ints[6 * i] = Long.bitCount(x) + 100 * Long.signum(x);
      ints[6 * i + 1] = Long.numberOfLeadingZeros(x >>> (i & 63));
      ints[6 * i + 2] = Long.numberOfTrailingZeros(x << (i & 63));
      ints[6 * i + 3] = Long.compare(x, y);
      ints[6 * i + 4] = Double.compare(d[i], d[(i + 1) % d.length]);
      ints[6 * i + 5] = Double.isFinite(d[i]) ? 1 : 0;
      longs[7 * i] = Long.reverse(x);
      longs[7 * i + 1] = Long.reverseBytes(x);
      longs[7 * i + 2] = Long.highestOneBit(x >>> (i & 63)) ^ Long.lowestOneBit(x);
      longs[7 * i + 3] = Long.rotateLeft(x, i) + Long.rotateRight(x, 3 * i);
      longs[7 * i + 4] = Long.min(x, y) + Long.max(x, y) + Long.sum(x, y);
      longs[7 * i + 5] = Double.doubleToLongBits(d[i]);
      longs[7 * i + 6] = Double.doubleToRawLongBits(d[i]);
      doubles[3 * i] = Double.longBitsToDouble(x);
      doubles[3 * i + 1] = Double.min(d[i], d[(i + 1) % d.length]) + Double.max(d[i], 1.0);
      doubles[3 * i + 2] = Double.sum(d[i], 0.5);
    }
  }

  /**
   * Math's float and double methods composed from exact operations (fma on floats, scalb, rint,
   * round, the bit methods on doubles), clamp, the long floorMod and floorDiv, Long's unsigned
   * methods, and StrictMath's twins: each exactly as the JDK computes it.
   */
  @Kernel
  static void exactComposed(float[] x, float[] y, float[] z, double[] d, long[] a, long[] b, int[] k,
      float[] floats, double[] doubles, long[] longs, int[] ints) {
    int i = Gpu.globalId(0);
    int n = x.length;
    if (i < n && i < y.length && i < z.length && i < d.length && i < a.length && i < b.length && i < k.length
        && 4 * i + 3 < floats.length && 7 * i + 6 < doubles.length && 6 * i + 5 < longs.length
        && 4 * i + 3 < ints.length) {
      double e = d[(i + 1) % n];
      floats[4 * i] = Math.fma(x[i], y[i], z[i]);
      floats[4 * i + 1] = Math.scalb(x[i], k[i] < -100 ? k[i] - 300 : k[i]);
      floats[4 * i + 2] = Math.clamp(x[i], -1f, 2.5f);
      floats[4 * i + 3] = StrictMath.fma(z[i], y[i], x[i]);
      doubles[7 * i] = Math.copySign(d[i], e);
      doubles[7 * i + 1] = Math.nextUp(d[i]);
      doubles[7 * i + 2] = StrictMath.nextDown(d[i]);
      doubles[7 * i + 3] = Math.ulp(d[i]);
      doubles[7 * i + 4] = Math.scalb(d[i], k[i] < -100 ? -2500 - k[i] : 9 * k[i]);
      doubles[7 * i + 5] = Math.rint(d[i]);
      doubles[7 * i + 6] = Math.clamp(d[i], -1e3, 1e3) + StrictMath.floor(e);
      longs[6 * i] = Math.round(d[i]);
      longs[6 * i + 1] = Math.floorMod(a[i], b[i] | 1);
      longs[6 * i + 2] = Math.floorDiv(a[i], b[i] >> (i & 63) | 1);
      longs[6 * i + 3] = Long.divideUnsigned(a[i], b[i] >>> (i & 63) | 1);
      longs[6 * i + 4] = Long.remainderUnsigned(a[i], b[i] >> (i & 63) | 1);
      longs[6 * i + 5] = Math.clamp(a[i] >> (i & 63), -5L, b[i] & 0xffff) + Math.floorDiv(a[i], k[i] | 1);
      ints[4 * i] = Math.getExponent(d[i]);
      ints[4 * i + 1] = Math.clamp(a[i] >> (i & 63), -100, 100);
      ints[4 * i + 2] = Math.floorMod(a[i], k[i] | 1);
      ints[4 * i + 3] = Long.compareUnsigned(a[i], b[i]) + 3 * Math.getExponent(x[i]);
    }
  }

  /** Math.clamp with bounds from the caller: Java's IllegalArgumentException where they are out of order. */
  @Kernel
  static void clampBetween(float[] x, float low, float high) {
    int i = Gpu.globalId(0);
    if (i < x.length) {
      x[i] = Math.clamp(x[i], low, high);
    }
  }
}
