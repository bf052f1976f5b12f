package dev.kiln.internal;

import dev.kiln.Grid;
import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.Launch;

/**
 * The calling thread's {@link Launch}, started for a kernel and filled with grids (which it
 * checks), one per arm of a group (one for a kernel), for the entry points of {@link Dispatch}. One
 * {@code Launch} per thread keeps the launch path free of allocation: backends read it during the
 * call and never launch from inside one, and {@code Device} drops its arguments afterwards.
 */
final class Launches {
  private static final ThreadLocal<Launch> THREAD = ThreadLocal.withInitial(Launch::new);

  private Launches() {}

  /** Every arm over {@code count} invocations along x. */
  static Launch line(KernelSpec spec, int count) {
    Launch.checkCountFits(spec);
    Launch launch = THREAD.get().start(spec);
    for (int arm = 0; arm < spec.gridCount(); arm++) {
      launch.grid(arm, count, 1, 1);
    }
    return launch;
  }

  /** Every arm over {@code grid}. */
  static Launch same(KernelSpec spec, Grid grid) {
    if (grid == null) {
      throw new NullPointerException(spec + ": the grid is null");
    }
    Launch launch = THREAD.get().start(spec);
    for (int arm = 0; arm < spec.gridCount(); arm++) {
      launch.grid(arm, grid.x(), grid.y(), grid.z());
    }
    return launch;
  }

  /** Arm k over {@code counts[k]} invocations along x; one count per arm. */
  static Launch lines(KernelSpec spec, int[] counts) {
    Launch.checkCountFits(spec);
    Launch launch = THREAD.get().start(spec);
    launch.expectGrids(counts.length);
    for (int arm = 0; arm < counts.length; arm++) {
      launch.grid(arm, counts[arm], 1, 1);
    }
    return launch;
  }

  /** Arm k over {@code grids[k]}; one non-null grid per arm. */
  static Launch grids(KernelSpec spec, Grid[] grids) {
    Launch launch = THREAD.get().start(spec);
    launch.expectGrids(grids.length);
    for (int arm = 0; arm < grids.length; arm++) {
      Grid grid = grids[arm];
      if (grid == null) {
        throw new IllegalArgumentException(spec + ": a grid is null");
      }
      launch.grid(arm, grid.x(), grid.y(), grid.z());
    }
    return launch;
  }
}
