package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Switch statements on ints: fall-through, rules, default in the middle, break and continue. */
public final class Switches {
  static final int THREE = 3;

  @Kernel
  static void classic(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length) {
      return;
    }
    int v = in[i] & 7;
    int r = 0;
    switch (v) {
      case 0:
        r += 1;
      case 1:
      case 2:
        r += 10;
        break;
      default:
        r += 100;
      case THREE:
        r += 1000;
        break;
      case 6:
        r = -1;
    }
    out[i] = r;
  }

  @Kernel
  static void rules(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length) {
      return;
    }
    int sum = 0;
    for (int k = 0; k < (in[i] & 15); k++) {
      switch (k % 4) {
        case 0 -> sum += k;
        case 1, 2 -> {
          if (k > 8) {
            break;
          }
          sum *= 3;
        }
        default -> {
          if (sum > 1000) {
            continue;
          }
          sum -= 7;
        }
      }
      sum ^= k;
    }
    switch (in[i] >>> 28) {
      case 15 -> out[i] = -sum;
      default -> out[i] = sum;
    }
  }
}
