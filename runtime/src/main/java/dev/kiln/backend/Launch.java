package dev.kiln.backend;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchValues;
import java.util.Arrays;

/**
 * One launch as backends take it: the kernel or group, one grid per arm (one for a kernel), and the
 * arguments in parameter order — a {@link BackendBuffer} of the backend per buffer parameter, a
 * boxed {@code Integer}, {@code Float}, {@code Long} or {@code Double} per scalar. A launch may be
 * one device's part of a launch split along x ({@link #part}), with some of its Java arrays moving
 * only in part ({@link #slice}). Mutable and reused: {@code dev.kiln.Device} fills one per thread
 * for each launch, so that the launch path allocates nothing; a backend reads it during the call
 * and must copy what it keeps.
 */
public final class Launch implements LaunchValues {
  private KernelSpec spec;
  private int[] grids = new int[3];
  private Object[] args = new Object[8];
  private int dispatchX;
  private int dispatchY;
  private int dispatchZ;

  /**
   * Where this is a part of a split launch: the global ids along x it runs, else {@code [0, -1)}.
   */
  private int partFirst;

  private int partEnd = -1;

  /**
   * The fused group's arm whose fault the backend threw for this launch; 0 for a kernel or none.
   */
  private int faultArm;

  /** Per buffer parameter, the part of its Java array that moves; null where all of it does. */
  private Slice[] slices = new Slice[8];

  /**
   * The elements {@code from .. to-1} of a launch's Java array, which alone go to the device, and,
   * where {@code back}, alone come back from it (else nothing does).
   *
   * @param from the first element
   * @param to the element after the last
   * @param back whether they come back
   */
  public record Slice(int from, int to, boolean back) {
    /** Checks the range. */
    public Slice {
      if (from < 0 || to < from) {
        throw new IllegalArgumentException("slice " + from + ".." + to);
      }
    }
  }

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
      slices = new Slice[params];
    }
    Arrays.fill(slices, null);
    partFirst = 0;
    partEnd = -1;
    dispatchX = 0;
    dispatchY = 0;
    dispatchZ = 0;
    faultArm = 0;
    return this;
  }

  /**
   * Notes, for a backend that throws a fused group's fault, the arm it is in: Java runs the arms
   * one after the other, so a split launch's parts throw the lowest arm's fault first.
   *
   * @param arm the arm's index in the group
   */
  public void faultArm(int arm) {
    faultArm = arm;
  }

  /**
   * The fused group's arm whose fault the backend threw last for this launch, 0 for a kernel's.
   *
   * @return the arm's index in the group
   */
  public int faultArm() {
    return faultArm;
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
      throw new IllegalArgumentException(
          spec
              + " takes "
              + spec.gridCount()
              + (spec.gridCount() == 1 ? " grid" : " grids, one per arm")
              + ", got "
              + given);
    }
  }

  /**
   * Refuses a count along x for a kernel or group whose workgroup has a y or z size: a count would
   * launch one row of it. Its launcher takes grids only; this guards the untyped entry points.
   *
   * @param spec the kernel or group a count was given for
   */
  public static void checkCountFits(KernelSpec spec) {
    if (spec.workgroup(1) > 1 || spec.workgroup(2) > 1) {
      throw new IllegalArgumentException(
          spec
              + " has a workgroup of "
              + spec.workgroup(0)
              + " x "
              + spec.workgroup(1)
              + " x "
              + spec.workgroup(2)
              + ": a count sizes only x and would launch one row of it. Fix: launch it with"
              + " a Grid (Grid.of(x, y) or Grid.of(x, y, z))");
    }
  }

  /**
   * Sets arm {@code arm}'s grid. A negative size is refused (a count: a {@code Grid} has none), and
   * so, since global ids are ints, is a grid that whole workgroups cover past {@code
   * Integer.MAX_VALUE} along an axis.
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
      throw new IllegalArgumentException(
          spec
              + ": a grid of "
              + size
              + " along axis "
              + axis
              + " needs global ids"
              + " past Integer.MAX_VALUE in whole workgroups of "
              + workgroup
              + "; launch at most "
              + (Integer.MAX_VALUE / workgroup * workgroup));
    }
  }

  /**
   * Makes this launch the part of itself that runs the global ids {@code first .. end-1} along x:
   * the backend runs the workgroups that hold them, {@code first} being the first id of a workgroup
   * on every backend (a multiple of the workgroup's length times the elements each invocation
   * handles). Everything else (the grids, what the kernel reads of them) stays the whole launch's.
   *
   * @param first the first id
   * @param end the id after the last, at most the grid's x
   */
  public void part(int first, int end) {
    if (first < 0 || end < first || end > dispatchX) {
      throw new IllegalArgumentException(
          spec + ": part " + first + ".." + end + " of " + dispatchX);
    }
    partFirst = first;
    partEnd = end;
  }

  /** The first workgroup along x to run, for workgroups of {@code idsPerGroup} ids along x. */
  public int firstGroup(int idsPerGroup) {
    return partFirst / idsPerGroup;
  }

  /**
   * The workgroup along x after the last to run, of {@code groups} in all, for workgroups of {@code
   * idsPerGroup} ids.
   */
  public int endGroup(int idsPerGroup, int groups) {
    return partEnd < 0 ? groups : Math.ceilDiv(partEnd, idsPerGroup);
  }

  /** Moves only {@code slice} of parameter {@code param}'s Java array, for a launch on arrays. */
  public void slice(int param, Slice slice) {
    slices[param] = slice;
  }

  /** What moves of parameter {@code param}'s Java array; null where all of it does. */
  public Slice slice(int param) {
    return slices[param];
  }

  /** Sets parameter {@code param}'s argument. */
  public void arg(int param, Object value) {
    args[param] = value;
  }

  /**
   * Drops the references to the arguments, so that a thread's reused launch keeps no buffer alive.
   */
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

  /** Parameter {@code param}'s int argument; {@link #UNKNOWN} for an argument of another type. */
  @Override
  public long scalar(int param) {
    return param < spec.params().size() && args[param] instanceof Integer value ? value : UNKNOWN;
  }

  /** The length of buffer argument {@code param}. */
  @Override
  public long length(int param) {
    return param < spec.params().size() ? lengthOf(args[param]) : UNKNOWN;
  }

  /**
   * The length of a buffer argument: a backend's buffer or a Java array; {@link #UNKNOWN} for
   * anything else.
   */
  static long lengthOf(Object buffer) {
    if (buffer instanceof BackendBuffer device) {
      return device.length();
    }
    return buffer != null && buffer.getClass().isArray()
        ? java.lang.reflect.Array.getLength(buffer)
        : UNKNOWN;
  }

  /** The global ids the dispatch runs along {@code axis}, in whole workgroups. */
  @Override
  public long dispatchedIds(int axis) {
    long workgroup = spec.workgroup(axis);
    return (dispatchSize(axis) + workgroup - 1) / workgroup * workgroup;
  }

  /** Arm {@code arm}'s grid along {@code axis}. */
  @Override
  public long grid(int arm, int axis) {
    return arm < spec.gridCount() ? gridSize(arm, axis) : UNKNOWN;
  }

  /** The kernel's workgroup size along {@code axis}. */
  @Override
  public long workgroupSize(int axis) {
    return spec.workgroup(axis);
  }

  /** Arm {@code arm}'s grid along {@code axis} in whole workgroups of the kernel's. */
  @Override
  public long roundedGrid(int arm, int axis) {
    long workgroup = spec.workgroup(axis);
    return (gridSize(arm, axis) + workgroup - 1) / workgroup * workgroup;
  }

  /**
   * Checks the bounds that the kernel's proofs need ({@link LaunchBound}), with the grids and
   * arguments set.
   *
   * @param bounds the kernel's bounds
   */
  public void checkBounds(java.util.List<LaunchBound> bounds) {
    for (int i = 0; i < bounds.size(); i++) { // no iterator: the launch path allocates nothing
      LaunchBound bound = bounds.get(i);
      if (!bound.holds(this)) {
        StringBuilder values = new StringBuilder();
        for (dev.kiln.abi.LaunchForm factor : bound.factors()) {
          values.append(values.isEmpty() ? "" : " × ").append(factor.value(this));
        }
        throw new IllegalArgumentException(
            spec
                + ": this launch breaks "
                + bound.condition(param -> spec.params().get(param).name())
                + " (here "
                + values
                + "); Kiln needs it to prove that "
                + bound.reason()
                + ", and past it indices wrap or other invocations"
                + " reach the same elements. Fix: launch a grid that keeps the bound, or split the work into launches that do");
      }
    }
  }

  /** Parameter {@code param}'s argument. */
  public Object arg(int param) {
    return args[param];
  }

  /** The arguments in parameter order, as a new array. */
  public Object[] arguments() {
    return Arrays.copyOf(args, spec.params().size());
  }

  /**
   * The grid the launch dispatches along {@code axis}: the axis-wise largest of the non-empty
   * grids.
   */
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
    copy.partFirst = partFirst;
    copy.partEnd = partEnd;
    copy.slices = slices.clone();
    return copy;
  }

  /** Workgroups the dispatch needs along {@code axis} for the kernel's workgroup size. */
  public int workgroups(int axis) {
    return Math.ceilDiv(dispatchSize(axis), spec.workgroup(axis));
  }
}
