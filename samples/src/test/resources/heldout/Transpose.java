package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** CUDA samples transpose: transposeCoalesced through a padded tile in workgroup memory. */
final class Transpose {
  static final double TOLERANCE = 0;
  static final int TILE = 16;
  static final int WIDTH = 75;
  static final int HEIGHT = 53;

  @Kernel(workgroup = {TILE, TILE})
  static void transposeCoalesced(float[] odata, float[] idata, int width, int height) {
    float[] tile = Gpu.sharedFloats(TILE * (TILE + 1));
    int x = Gpu.workgroupId(0) * TILE + Gpu.localId(0);
    int y = Gpu.workgroupId(1) * TILE + Gpu.localId(1);
    if (x < width && y < height) {
      tile[Gpu.localId(1) * (TILE + 1) + Gpu.localId(0)] = idata[y * width + x];
    }
    Gpu.barrier();
    x = Gpu.workgroupId(1) * TILE + Gpu.localId(0);
    y = Gpu.workgroupId(0) * TILE + Gpu.localId(1);
    if (x < height && y < width) {
      odata[y * height + x] = tile[Gpu.localId(0) * (TILE + 1) + Gpu.localId(1)];
    }
  }

  static final int[] transposeCoalescedGrid = {WIDTH, HEIGHT};

  static Object[] transposeCoalescedArgs(Random r) {
    float[] in = new float[WIDTH * HEIGHT];
    for (int i = 0; i < in.length; i++) {
      in[i] = r.nextFloat();
    }
    return new Object[] {new float[WIDTH * HEIGHT], in, WIDTH, HEIGHT};
  }
}
