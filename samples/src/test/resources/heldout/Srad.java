package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia srad (v2): the diffusion coefficient, then the update from it; the second reads neighbours' coefficients. */
final class Srad {
  static final double TOLERANCE = 0;
  static final int ROWS = 29;
  static final int COLS = 35;

  // expect srad: kiln.fusion.aliasing
  @Kernel(workgroup = {16, 16})
  @FuseGroup("srad")
  static void srad1(float[] j, float[] dN, float[] dS, float[] dW, float[] dE, float[] c, int rows, int cols,
      float q0sqr) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    if (y >= rows || x >= cols) {
      return;
    }
    int k = y * cols + x;
    float jc = j[k];
    int iN = y == 0 ? 0 : y - 1;
    int iS = y == rows - 1 ? rows - 1 : y + 1;
    int jW = x == 0 ? 0 : x - 1;
    int jE = x == cols - 1 ? cols - 1 : x + 1;
    dN[k] = j[iN * cols + x] - jc;
    dS[k] = j[iS * cols + x] - jc;
    dW[k] = j[y * cols + jW] - jc;
    dE[k] = j[y * cols + jE] - jc;
    float g2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (jc * jc);
    float l = (dN[k] + dS[k] + dW[k] + dE[k]) / jc;
    float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1 + (.25f * l);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float cv = 1.0f / (1.0f + den);
    if (cv < 0) {
      cv = 0;
    } else if (cv > 1) {
      cv = 1;
    }
    c[k] = cv;
  }

  static final int[] srad1Grid = {COLS, ROWS};

  static Object[] srad1Args(Random r) {
    int n = ROWS * COLS;
    return new Object[] {image(r), new float[n], new float[n], new float[n], new float[n], new float[n], ROWS, COLS,
        0.05f};
  }

  @Kernel(workgroup = {16, 16})
  @FuseGroup("srad")
  static void srad2(float[] j, float[] dN, float[] dS, float[] dW, float[] dE, float[] c, int rows, int cols,
      float lambda) {
    int x = Gpu.globalId(0);
    int y = Gpu.globalId(1);
    if (y >= rows || x >= cols) {
      return;
    }
    int k = y * cols + x;
    int iS = y == rows - 1 ? rows - 1 : y + 1;
    int jE = x == cols - 1 ? cols - 1 : x + 1;
    float cN = c[k];
    float cS = c[iS * cols + x];
    float cW = c[k];
    float cE = c[y * cols + jE];
    float d = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
    j[k] = j[k] + 0.25f * lambda * d;
  }

  static final int[] srad2Grid = {COLS, ROWS};

  static Object[] srad2Args(Random r) {
    int n = ROWS * COLS;
    return new Object[] {image(r), values(r, n), values(r, n), values(r, n), values(r, n), values(r, n), ROWS, COLS,
        0.5f};
  }

  private static float[] image(Random r) {
    float[] values = new float[ROWS * COLS];
    for (int i = 0; i < values.length; i++) {
      values[i] = 1f + r.nextFloat();
    }
    return values;
  }

  private static float[] values(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() - 0.5f;
    }
    return values;
  }
}
