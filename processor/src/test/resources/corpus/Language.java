package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Java that kernels are written in: enhanced for, switch expressions, constant variables, assert. */
public final class Language {
  private Language() {}

  /** Enhanced for over a buffer, a private array and workgroup memory, with break and continue. */
  @Kernel(workgroup = 64)
  static void forEach(int[] in, float[] weights, int[] out) {
    final int taps = 4; // a constant variable: a private array's length
    int[] window = new int[taps];
    int[] shared = Gpu.sharedInts(64);
    int i = Gpu.globalId(0);
    shared[Gpu.localId(0)] = i < in.length ? in[i] : 0;
    Gpu.barrier();
    if (i < in.length && i < out.length) {
      for (int k = 0; k < taps; k++) {
        window[k] = in[(i + k) % in.length];
      }
      int sum = 0;
      for (int v : window) {
        sum += v;
      }
      for (float w : weights) { // a float buffer, read whole
        if (w < 0) {
          continue;
        }
        sum += (int) w;
        if (sum > 1000000) {
          break;
        }
      }
      long wide = 0;
      for (long v : shared) { // widening, as Java's for-each converts
        wide += v;
      }
      out[i] = sum + (int) (wide & 0xffff);
    }
  }

  /** Switch expressions: arrows, several labels, default, as values anywhere; yield in blocks. */
  @Kernel
  static void switches(int[] in, int[] out, float[] floats) {
    final int axis = 0; // a constant variable where a constant is needed
    int i = Gpu.globalId(axis);
    if (i < in.length && i < out.length && i < floats.length) {
      int v = in[i];
      int small = switch (v & 7) {
        case 0 -> 10;
        case 1, 2 -> 20;
        case 3 -> v >> 3;
        default -> -1;
      };
      int blocks = switch (v & 3) {
        case 0 -> {
          int t = v * 3;
          yield t + 1;
        }
        case 1 -> 5;
        case 2 -> {
          for (int k = 0; k < 10; k++) {
            if (k * k > (v & 63)) {
              yield k; // a yield inside a loop leaves the switch, not just the loop
            }
          }
          yield 100;
        }
        default -> {
          yield switch (v & 12) { case 4 -> 1; case 8 -> 2; default -> 3; };
        }
      };
      float f = switch (v % 3) { case 0 -> 0.5f; case 1, -1 -> 1.5f; default -> 2.5f; } * small;
      out[i] = small + 100 * blocks + (switch (v & 1) { case 0 -> 7; default -> 9; });
      floats[i] = f;
      assert small == small : "not evaluated on the GPU, as Java runs without -ea";
    }
  }
}
