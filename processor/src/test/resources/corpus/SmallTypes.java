package corpus;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/**
 * byte, short, char and boolean: values held as ints and narrowed where Java narrows (casts,
 * compound assignments, increments), buffers of 8 and 16 bits, and private byte arrays.
 */
public final class SmallTypes {
  /** Every narrowing Java does, on locals, buffer elements and a private array. */
  @Kernel
  static void narrowing(float[] in, byte[] codes, short[] wide, char[] units, boolean[] flags, int[] out) {
    int i = Gpu.globalId(0);
    if (i < in.length && i < codes.length && i < wide.length && i < units.length && i < flags.length
        && 4 * i + 3 < out.length) {
      byte b = (byte) in[i];
      b += 100;
      b++;
      short s = (short) (b * 300 + wide[i]);
      s <<= 3;
      s >>>= 1;
      char c = (char) (s - 5);
      c += 'a';
      c--;
      codes[i] += b;
      codes[i]++;
      wide[i] = (short) (s ^ wide[i]);
      units[i] = c;
      units[i] >>= 2;
      flags[i] = !flags[i] || b < 0;
      byte[] local = new byte[4];
      local[i & 3] = (byte) (c + b);
      local[(i + 1) & 3] -= 7;
      byte last = local[(i + 1) & 3]--;
      boolean[] seen = new boolean[2];
      seen[i & 1] = flags[i];
      out[4 * i] = b + s + c;
      out[4 * i + 1] = local[0] + local[1] + local[2] + local[3] + last;
      out[4 * i + 2] = codes[i] * units[i] + (flags[i] ? 1 : 0) + (seen[1] ? 2 : 0);
      out[4 * i + 3] = switch (c & 3) {
        case 0 -> (byte) (long) in[i];
        case 1 -> (char) -b;
        case 2 -> (short) (c << 9);
        default -> 'z' - c;
      };
    }
  }

  /** A grey image thresholded: unsigned bytes read as {@code b & 0xff}, as image code does in Java. */
  @Kernel
  static void threshold(byte[] pixels, byte[] mask, int level) {
    int i = Gpu.globalId(0);
    if (i < pixels.length && i < mask.length) {
      mask[i] = (pixels[i] & 0xff) >= level ? (byte) 255 : 0;
    }
  }

  /** A switch on char with char labels, and enhanced fors over char and short buffers. */
  @Kernel
  static void letterClasses(char[] text, short[] weights, int[] counts, long[] total) {
    int i = Gpu.globalId(0);
    if (i == 0 && counts.length >= 4 && total.length >= 1) {
      for (char c : text) {
        int k = switch (c) {
          case 'a', 'e', 'i', 'o', 'u' -> 0;
          case ' ' -> 1;
          default -> c >= '0' && c <= '9' ? 2 : 3;
        };
        Gpu.atomicAdd(counts, k, 1);
      }
      long sum = 0;
      for (short w : weights) {
        sum += w;
      }
      total[0] = sum;
    }
  }
}
