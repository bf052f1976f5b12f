package dev.kiln;

import java.util.Arrays;

/**
 * The grids of a launch, one per arm of a group (one for a kernel), checked against the spec. The
 * arrays these make are the caller's alone; a caller's own array is copied by {@link #check}.
 */
final class Launches {
  private Launches() {}

  /** {@code count} invocations along x; never negative. */
  static Grid line(KernelSpec spec, int count) {
    if (count < 0) {
      throw new IllegalArgumentException(spec + ": count must not be negative: " + count);
    }
    return new Grid(count, 1, 1);
  }

  /** {@code grid} for every arm. */
  static Grid[] same(KernelSpec spec, Grid grid) {
    java.util.Objects.requireNonNull(grid, () -> spec + ": the grid is null");
    Grid[] grids = new Grid[spec.gridCount()];
    Arrays.fill(grids, grid);
    return grids;
  }

  /** Arm k over {@code counts[k]} invocations along x; one count per arm. */
  static Grid[] lines(KernelSpec spec, int[] counts) {
    checkArity(spec, counts.length);
    Grid[] grids = new Grid[counts.length];
    for (int k = 0; k < counts.length; k++) {
      grids[k] = line(spec, counts[k]);
    }
    return grids;
  }

  /** A copy of {@code grids}, which must hold one non-null grid per arm. */
  static Grid[] check(KernelSpec spec, Grid[] grids) {
    checkArity(spec, grids.length);
    for (Grid grid : grids) {
      if (grid == null) {
        throw new IllegalArgumentException(spec + ": a grid is null");
      }
    }
    return grids.clone();
  }

  private static void checkArity(KernelSpec spec, int given) {
    if (given != spec.gridCount()) {
      throw new IllegalArgumentException(spec + " takes " + spec.gridCount()
          + (spec.gridCount() == 1 ? " grid" : " grids, one per arm") + ", got " + given);
    }
  }
}
