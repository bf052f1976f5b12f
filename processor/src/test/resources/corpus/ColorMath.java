package corpus;

/**
 * Helpers of another class, compiled with the kernels that call them ({@link CrossClass}): lowered
 * when javac has analyzed this class and linked into the kernels.
 */
public final class ColorMath {
  static final float GAMMA = 2.2f;

  private ColorMath() {}

  /** A pure helper: its body is one return. */
  static float luminance(float r, float g, float b) {
    return 0.2126f * r + 0.7152f * g + 0.0722f * b;
  }

  /** A helper with statements, calling one of its own class. */
  static float toneMap(float x, float exposure) {
    float v = x * exposure;
    if (v <= 0f) {
      return 0f;
    }
    return clamp01(v / (1f + v));
  }

  static float clamp01(float x) {
    return Math.min(Math.max(x, 0f), 1f);
  }

  /** A helper that writes the caller's buffer. */
  static void store(float[] out, int i, float value) {
    out[i] = value * GAMMA;
  }

  /** Fills the caller's array from a buffer, the weights from the kernel's class. */
  static void fillWindow(float[] window, float[] in, int at, int taps) {
    for (int k = 0; k < window.length; k++) {
      int j = at + k;
      if (k >= taps || j >= in.length) {
        window[k] = 0f;
        continue;
      }
      window[k] = in[j] * CrossClass.weight(k);
    }
  }

  static float sum(float[] values) {
    float total = 0f;
    for (float v : values) {
      total += v;
    }
    return total;
  }
}
