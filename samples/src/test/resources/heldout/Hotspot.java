package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia hotspot: one step of the thermal simulation (the single_iteration update, edges clamped). */
final class Hotspot {
  static final double TOLERANCE = 0;
  static final int ROWS = 37;
  static final int COLS = 45;

  @Kernel(workgroup = {16, 16})
  static void calculateTemp(float[] power, float[] temp, float[] result, int row, int col, float cap1, float rx1,
      float ry1, float rz1, float ambTemp) {
    int c = Gpu.globalId(0);
    int r = Gpu.globalId(1);
    if (r >= row || c >= col) {
      return;
    }
    int idx = r * col + c;
    float n = r == 0 ? temp[idx] : temp[idx - col];
    float s = r == row - 1 ? temp[idx] : temp[idx + col];
    float e = c == col - 1 ? temp[idx] : temp[idx + 1];
    float w = c == 0 ? temp[idx] : temp[idx - 1];
    float delta = cap1 * (power[idx] + (s + n - 2.0f * temp[idx]) * ry1 + (e + w - 2.0f * temp[idx]) * rx1
        + (ambTemp - temp[idx]) * rz1);
    result[idx] = temp[idx] + delta;
  }

  static final int[] calculateTempGrid = {COLS, ROWS};

  static Object[] calculateTempArgs(Random r) {
    float[] power = new float[ROWS * COLS];
    float[] temp = new float[ROWS * COLS];
    for (int i = 0; i < power.length; i++) {
      power[i] = r.nextFloat();
      temp[i] = 320f + r.nextFloat() * 20f;
    }
    return new Object[] {power, temp, new float[ROWS * COLS], ROWS, COLS, 0.5f, 0.1f, 0.1f, 0.01f, 80f};
  }
}
