package dev.kiln.backend;

import dev.kiln.abi.KernelSpec;
import java.util.Arrays;

/**
 * One launch as backends take it: the kernel or group, one grid per arm (one for a kernel), and the
 * arguments in parameter order — a {@link BackendBuffer} of the backend per buffer parameter, a
 * boxed {@code Integer}, {@code Float}, {@code Long} or {@code Double} per scalar. Mutable and
 * reused: {@code dev.kiln.Device} fills one per thread for each launch, so that the launch path
 * allocates nothing; a backend reads it during the call and must copy what it keeps.
 */
public final class Launch {
  private KernelSpec spec;
  private int[] grids = new int[3];
  private Object[] args = new Object[8];
  private int dispatchX;
  private int dispatchY;
  private int dispatchZ;

  /** Starts describing a launch of {@code spec}: no grids or arguments set yet. */
  public Launch start(KernelSpec spec) {
    this.spec = spec;
    int gridWords = 3 * spec.gridCount();
    if (grids.length < gridWords) {
      grids = new int[gridWords];
    }
    int params = spec.params().size();
    if (args.length < params) {
      args = new Object[params];
    }
    dispatchX = 0;
    dispatchY = 0;
    dispatchZ = 0;
    return this;
  }

  /**
   * Checks that a launch gives {@code given} grids or counts: one per arm of a group, one for a
   * kernel. This class is where a launch's shape is checked (a {@code dev.kiln.Grid} is never
   * negative).
   *
   * @param given how many the launch gives
   */
  public void expectGrids(int given) {
    if (given != spec.gridCount()) {
      throw new IllegalArgumentException(spec + " takes " + spec.gridCount()
          + (spec.gridCount() == 1 ? " grid" : " grids, one per arm") + ", got " + given);
    }
  }

  /**
   * Sets arm {@code arm}'s grid. A negative size is refused (a count: a {@code Grid} has none), and
   * so, since global ids are ints, is a grid that whole workgroups cover past
   * {@code Integer.MAX_VALUE} along an axis.
   */
  public void grid(int arm, int x, int y, int z) {
    if (x < 0) {
      throw new IllegalArgumentException(spec + ": count must not be negative: " + x);
    }
    fitsIds(0, x);
    fitsIds(1, y);
    fitsIds(2, z);
    grids[3 * arm] = x;
    grids[3 * arm + 1] = y;
    grids[3 * arm + 2] = z;
    if (x != 0 && y != 0 && z != 0) { // the dispatch is the axis-wise largest non-empty grid
      dispatchX = Math.max(dispatchX, x);
      dispatchY = Math.max(dispatchY, y);
      dispatchZ = Math.max(dispatchZ, z);
    }
  }

  private void fitsIds(int axis, int size) {
    int workgroup = spec.workgroup(axis);
    if ((long) Math.ceilDiv(size, workgroup) * workgroup > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(spec + ": a grid of " + size + " along axis " + axis + " needs global ids"
          + " past Integer.MAX_VALUE in whole workgroups of " + workgroup + "; launch at most "
          + (Integer.MAX_VALUE / workgroup * workgroup));
    }
  }

  /** Sets parameter {@code param}'s argument. */
  public void arg(int param, Object value) {
    args[param] = value;
  }

  /** Drops the references to the arguments, so that a thread's reused launch keeps no buffer alive. */
  public void clearArguments() {
    Arrays.fill(args, null);
  }

  public KernelSpec spec() {
    return spec;
  }

  /** Arm {@code arm}'s grid size along {@code axis}. */
  public int gridSize(int arm, int axis) {
    return grids[3 * arm + axis];
  }

  /** Arm {@code arm}'s grid sizes (x, y, z), as a new array. */
  public int[] grid(int arm) {
    return new int[] {grids[3 * arm], grids[3 * arm + 1], grids[3 * arm + 2]};
  }

  /** Parameter {@code param}'s argument. */
  public Object arg(int param) {
    return args[param];
  }

  /** The arguments in parameter order, as a new array. */
  public Object[] arguments() {
    return Arrays.copyOf(args, spec.params().size());
  }

  /** The grid the launch dispatches along {@code axis}: the axis-wise largest of the non-empty grids. */
  public int dispatchSize(int axis) {
    return switch (axis) {
      case 0 -> dispatchX;
      case 1 -> dispatchY;
      default -> dispatchZ;
    };
  }

  /** Whether every grid is empty: nothing runs. */
  public boolean isEmpty() {
    return dispatchX == 0;
  }

  /** A copy that later changes to this launch do not touch, for a backend that runs it later. */
  public Launch copy() {
    Launch copy = new Launch();
    copy.spec = spec;
    copy.grids = grids.clone();
    copy.args = arguments();
    copy.dispatchX = dispatchX;
    copy.dispatchY = dispatchY;
    copy.dispatchZ = dispatchZ;
    return copy;
  }

  /** Workgroups the dispatch needs along {@code axis} for the kernel's workgroup size. */
  public int workgroups(int axis) {
    return Math.ceilDiv(dispatchSize(axis), spec.workgroup(axis));
  }
}
