package test;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

class ShapeBase {
  static final class Rows {
    static int row() {
      return Gpu.globalId(1);
    }
  }
}

/** Kernels whose launchers take grids because they read y, and one whose read the launcher missed. */
public final class LaunchShapes extends ShapeBase {
  static int column() {
    return Gpu.globalId(0);
  }

  static int layer() {
    return Gpu.workgroupId(2);
  }

  @Kernel
  static void ownHelper(float[] out, int width) {
    out[layer() * width + column()] = 1f; // a helper of its class: followed, so the launcher takes grids
  }

  @Kernel
  static void inheritedHelper(float[] out, int width) { // ERROR: [kiln.launch.hiddenAxis]
    out[Rows.row() * width + column()] = 1f;
  }
}
