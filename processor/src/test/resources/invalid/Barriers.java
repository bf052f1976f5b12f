package invalid;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Barriers that only some invocations of a workgroup reach, and some that all reach. */
public final class Barriers {
  @Kernel
  static void underVaryingCondition(float[] a) {
    float[] tile = Gpu.sharedFloats(64);
    int i = Gpu.globalId(0);
    if (i < a.length) {
      tile[Gpu.localId(0)] = a[i];
      Gpu.barrier(); // ERROR: [kiln.barrier.divergent]
      a[i] = tile[63 - Gpu.localId(0)];
    }
  }

  @Kernel
  static void afterEarlyReturn(float[] a) {
    int i = Gpu.globalId(0);
    if (i >= a.length) {
      return;
    }
    Gpu.barrier(); // ERROR: [kiln.barrier.divergent]
  }

  @Kernel
  static void inVaryingLoop(int[] counts) {
    int i = Gpu.globalId(0);
    for (int k = 0; k < i % 4; k++) {
      Gpu.barrier(); // ERROR: [kiln.barrier.divergent]
    }
  }

  @Kernel
  static void throughALocal(int[] counts, int n) {
    int limit = Gpu.localId(0) < 3 ? n : 0;
    int steps = limit;
    while (steps > 0) {
      Gpu.barrier(); // ERROR: [kiln.barrier.divergent]
      steps--;
    }
  }

  @Kernel
  static void loopLeftEarly(float[] a, int n) {
    for (int k = 0; k < n; k++) {
      if (a[Gpu.globalId(0)] > k) { // an element of its own: varies
        break;
      }
      Gpu.barrier(); // ERROR: [kiln.barrier.divergent]
    }
  }

  // accepted: uniform loops and conditions, work guarded around the barrier
  @Kernel
  static void uniformEverywhere(float[] a, int n) {
    float[] tile = Gpu.sharedFloats(64);
    int i = Gpu.globalId(0);
    int l = Gpu.localId(0);
    tile[l] = i < a.length ? a[i] : 0f;
    Gpu.barrier();
    for (int step = 1; step < 64; step *= 2) {
      float add = l >= step ? tile[l - step] : 0f;
      Gpu.barrier();
      tile[l] += add;
      Gpu.barrier();
    }
    if (n > 2 && Gpu.workgroupId(0) % 2 == 0) {
      Gpu.barrier();
    }
    for (int k = 0; k < n; k++) {
      for (int j = 0; j < 4; j++) {
        if (i == j) {
          break; // leaves the inner loop only
        }
      }
      Gpu.barrier();
    }
    if (i < a.length) {
      a[i] = tile[l];
    }
  }
}
