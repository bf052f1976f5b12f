package dev.kiln.cpu;

import dev.kiln.NumericType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;

/** What the invocations of one workgroup share: its shared arrays and, when they run side by side, a barrier. */
final class Workgroup {
  private final List<Object> arrays = new ArrayList<>();
  private final Phaser phaser;

  /** @param phaser the barrier of invocations running side by side, or null when they run one by one */
  Workgroup(Phaser phaser) {
    this.phaser = phaser;
  }

  synchronized Object shared(int declaration, NumericType type, int length) {
    if (declaration == arrays.size()) {
      arrays.add(switch (type) {
        case INT -> new int[length];
        case FLOAT -> new float[length];
      });
    }
    return arrays.get(declaration);
  }

  void barrier() {
    if (phaser == null) {
      throw new IllegalStateException("Gpu.barrier() in a kernel whose module declares no barrier");
    }
    phaser.arriveAndAwaitAdvance();
  }
}
