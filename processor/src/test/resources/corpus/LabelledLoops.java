package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Labelled break and continue across loops and switches. */
public final class LabelledLoops {
  /** Searches a small grid of values for the first pair whose product has the wanted bits. */
  @Kernel
  static void search(int[] in, int[] out) {
    int i = Gpu.globalId(0);
    if (i >= in.length) {
      return;
    }
    int v = in[i];
    int found = -1;
    int steps = 0;
    outer:
    for (int a = 0; a < 12; a++) {
      inner:
      for (int b = 0; b < 12; b++) {
        steps++;
        if (((a * b) & 7) == (v & 7) && b > (v >>> 29)) {
          found = a * 100 + b;
          break outer;
        }
        switch ((v >>> b) & 3) {
          case 0:
            continue outer;
          case 1:
            continue inner;
          case 2:
            if (steps > (v & 63)) {
              break outer;
            }
            break;
          default:
            steps += 2;
        }
        int k = 0;
        while (true) {
          k++;
          if (k > (v & 3)) {
            continue inner;
          }
          if (k == 3) {
            break inner;
          }
        }
      }
      steps += 1000;
    }
    out[i] = found * 10000 + steps;
  }
}
