package dev.kiln.bench;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.ShortArray;
import dev.kiln.library.Gemv;
import java.util.Random;

/**
 * Checks on a GPU that the library's GEMVs give the CPU backend's results: the plain float16 and
 * bfloat16 products and the norm-split ones a Llama step runs ({@code accumulateForNorm}, {@code
 * normedProduct}, {@code gatedNormedProduct}), which fold their rows in the subgroup where the
 * device's subgroups have 32 lanes and in workgroup memory on the CPU backend. The residual, the
 * weighted vector, the sums of squares and the plain products must have the same bits; the
 * norm-split products apply the device's {@code sqrt} (and SiLU's {@code exp}), so they are
 * compared within 1e-6 (1e-5) of their size, as the library's tests compare them. Exits with 1 at
 * a difference.
 *
 * <p>{@code java -cp ... dev.kiln.bench.GemvBits}
 */
public final class GemvBits {
  private static final String[] PARTS = {"residual", "weighted", "squares", "normed", "gated", "plain"};

  private GemvBits() {}

  public static void main(String[] args) {
    int[][] shapes = {{2048, 2048, 8192}, {300, 129, 9}, {33, 4099, 40}, {2048, 8192, 2048}};
    boolean same = true;
    try (Device gpu = Device.open();
        Device cpu = Device.open("cpu")) {
      System.out.printf("%s (%s, subgroups of %d) against the CPU backend%n", gpu.name(), gpu.backend(), gpu.subgroupSize());
      for (int[] shape : shapes) {
        for (boolean bfloat : new boolean[] {false, true}) {
          float[][] onGpu = run(gpu, shape, bfloat);
          float[][] onCpu = run(cpu, shape, bfloat);
          StringBuilder line = new StringBuilder();
          for (int part = 0; part < PARTS.length; part++) {
            double tolerance = part == 3 ? 1e-6 : part == 4 ? 1e-5 : 0;
            double worst = 0;
            boolean ok = true;
            for (int i = 0; i < onGpu[part].length; i++) {
              float g = onGpu[part][i];
              float c = onCpu[part][i];
              double gap = Math.abs((double) g - c);
              worst = Math.max(worst, gap / Math.max(Math.abs((double) c), 1e-30));
              ok &=
                  tolerance == 0
                      ? Float.floatToRawIntBits(g) == Float.floatToRawIntBits(c)
                      : gap <= tolerance * Math.abs(c) + 1e-30;
            }
            line.append(String.format(" %s %s", PARTS[part], tolerance == 0 ? (ok ? "same bits" : "DIFFER") : String.format("%s (%.1e)", ok ? "within" : "BEYOND", worst)));
            same &= ok;
          }
          System.out.printf(
              "%d x %d, then %d rows, %s:%s%n",
              shape[0], shape[1], shape[2], bfloat ? "bf16" : "f16", line);
        }
      }
    }
    System.exit(same ? 0 : 1);
  }

  private static float[][] run(Device device, int[] shape, boolean bfloat) {
    int hidden = shape[0];
    int cols = shape[1];
    int out = shape[2];
    Random random = new Random(hidden * 7919L + cols * 31L + out);
    short[] a = sixteen(random, hidden * cols, bfloat);
    short[] b = sixteen(random, 2 * out * hidden, bfloat);
    float[] x = floats(random, cols);
    float[] residual = floats(random, hidden);
    float[] weight = floats(random, hidden);
    try (ShortArray da = device.upload(a);
        ShortArray db = device.upload(b);
        FloatArray dx = device.upload(x);
        FloatArray dy = device.upload(residual);
        FloatArray dw = device.upload(weight);
        FloatArray dn = device.floats(hidden);
        FloatArray ds = device.floats(Gemv.normParts(hidden));
        FloatArray dp = device.floats(out);
        FloatArray dg = device.floats(out);
        FloatArray plain = device.floats(2 * out)) {
      try (Batch batch = device.batch()) {
        Gemv.accumulateForNorm(batch, da, hidden, cols, dx, dy, dw, dn, ds, bfloat);
        Gemv.normedProduct(batch, db, out, hidden, dn, ds, 1e-5f, dp, bfloat);
        Gemv.gatedNormedProduct(batch, db, out, hidden, dn, ds, 1e-5f, dg, bfloat);
        if (bfloat) {
          Gemv.bfloats(batch, db, 2 * out, hidden, dn, plain, false);
        } else {
          Gemv.halves(batch, db, 2 * out, hidden, dn, plain, false);
        }
      }
      return new float[][] {
        dy.toArray(), dn.toArray(), ds.toArray(), dp.toArray(), dg.toArray(), plain.toArray()
      };
    }
  }

  /** Values of float16 or bfloat16 bits, a few in ten of them subnormal, zero or large. */
  private static short[] sixteen(Random random, int n, boolean bfloat) {
    short[] bits = new short[n];
    for (int i = 0; i < n; i++) {
      float v = (float) random.nextGaussian() * (random.nextInt(10) == 0 ? 1e-6f : 0.05f);
      bits[i] =
          bfloat ? (short) (Float.floatToRawIntBits(v) >>> 16) : Float.floatToFloat16(v);
    }
    return bits;
  }

  private static float[] floats(Random random, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = (float) random.nextGaussian();
    }
    return values;
  }
}
