package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Aparapi's Mandel example: the escape count of each pixel, colour from a palette. */
final class Mandelbrot {
  static final double TOLERANCE = 0;
  static final int WIDTH = 97;
  static final int HEIGHT = 61;
  static final int MAX_ITERATIONS = 64;

  @Kernel
  static void mandel(int[] rgb, int[] pallette, int width, int height, float scale, float offsetx, float offsety) {
    int gid = Gpu.globalId(0);
    if (gid >= width * height) {
      return;
    }
    float x = (((gid % width * scale) - ((scale / 2) * width)) / width) + offsetx;
    float y = (((gid / width * scale) - ((scale / 2) * height)) / height) + offsety;
    int count = 0;
    float zx = x;
    float zy = y;
    float newzx = 0f;
    for (; count < MAX_ITERATIONS && ((zx * zx) + (zy * zy)) < 8; count++) {
      newzx = ((zx * zx) - (zy * zy)) + x;
      zy = (2 * zx * zy) + y;
      zx = newzx;
    }
    rgb[gid] = pallette[count];
  }

  static final int mandelGrid = WIDTH * HEIGHT;

  static Object[] mandelArgs(Random r) {
    int[] pallette = new int[MAX_ITERATIONS + 1];
    for (int i = 0; i < pallette.length; i++) {
      pallette[i] = r.nextInt();
    }
    return new Object[] {new int[WIDTH * HEIGHT], pallette, WIDTH, HEIGHT, 3f, -1f, 0f};
  }
}
