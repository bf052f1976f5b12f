package dev.kiln.cpu;

import dev.kiln.abi.NumericType;
import java.util.ArrayList;
import java.util.List;

/** What the invocations of one workgroup share: its shared arrays and, when they run side by side, a barrier. */
final class Workgroup {
  private final List<Object> arrays = new ArrayList<>();
  private final WorkgroupBarrier barrier;

  /** @param barrier the barrier of invocations running side by side, or null when they run one by one */
  Workgroup(WorkgroupBarrier barrier) {
    this.barrier = barrier;
  }

  synchronized Object shared(int declaration, NumericType type, int length) {
    if (declaration == arrays.size()) {
      arrays.add(switch (type) {
        case INT -> new int[length];
        case FLOAT -> new float[length];
        case LONG -> new long[length];
        case DOUBLE -> new double[length];
        case BYTE -> new byte[length];
        case SHORT -> new short[length];
        case CHAR -> new char[length];
        case BOOLEAN -> new boolean[length];
      });
    }
    return arrays.get(declaration);
  }

  void barrier() {
    if (barrier == null) {
      throw new IllegalStateException("Gpu.barrier() in a kernel whose module declares no barrier");
    }
    barrier.await();
  }
}
