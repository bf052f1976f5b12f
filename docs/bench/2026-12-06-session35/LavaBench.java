import dev.kiln.*;
import dev.kiln.library.Gemv;
import java.util.Random;
public class LavaBench {
  public static void main(String[] args) {
    int rows = 2048, cols = 2048;
    int zeroEvery = Integer.parseInt(args[0]);
    try (Device device = Device.open(args.length > 1 ? args[1] : "vulkan")) {
      Random r = new Random(1);
      short[] a = new short[rows * cols];
      for (int i = 0; i < a.length; i++) {
        a[i] = Float.floatToFloat16((r.nextInt(64) - 31.5f) / 4096f);
        if (zeroEvery > 0 && r.nextInt(zeroEvery) == 0) a[i] = 0;
      }
      float[] x = new float[cols];
      for (int i = 0; i < cols; i++) x[i] = r.nextFloat();
      ShortArray da = device.upload(a);
      FloatArray dx = device.upload(x);
      FloatArray dy = device.floats(rows);
      for (int i = 0; i < 3; i++) Gemv.halves(device, da, rows, cols, dx, dy, false);
      int n = 15;
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) Gemv.halves(device, da, rows, cols, dx, dy, false);
      long t1 = System.nanoTime();
      System.out.printf("%s zeros 1/%d: %.2f ms%n", device, zeroEvery, (t1 - t0) / 1e6 / n);
    }
  }
}
