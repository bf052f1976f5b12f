package dev.kiln.cpu;

import dev.kiln.abi.NumericType;

/** The invocation a CPU-backend thread is running, read by {@code Gpu} intrinsics. */
public final class Invocation {
  private static final ThreadLocal<Invocation> CURRENT = new ThreadLocal<>();

  private final int[] globalId = new int[3];
  private final int[] localId = new int[3];
  private final int[] workgroupId = new int[3];
  private final int[] numWorkgroups = new int[3];
  private final int[] size = new int[3];
  private Workgroup workgroup;
  private int sharedDeclarations;

  /** The invocation running on this thread. */
  public static Invocation current() {
    Invocation invocation = CURRENT.get();
    if (invocation == null) {
      throw new IllegalStateException("Gpu intrinsics can only be called from a kernel run by Kiln");
    }
    return invocation;
  }

  static Invocation enter() {
    Invocation invocation = new Invocation();
    CURRENT.set(invocation);
    return invocation;
  }

  static void exit() {
    CURRENT.remove();
  }

  /** Starts an invocation of {@code workgroup}; the arrays hold x, y and z. */
  void set(Workgroup workgroup, int[] group, int[] local, int[] size, int[] groups) {
    this.workgroup = workgroup;
    for (int axis = 0; axis < 3; axis++) {
      workgroupId[axis] = group[axis];
      localId[axis] = local[axis];
      globalId[axis] = group[axis] * size[axis] + local[axis];
      numWorkgroups[axis] = groups[axis];
      this.size[axis] = size[axis];
    }
    this.sharedDeclarations = 0;
  }

  /** The invocation's index in its workgroup, x fastest. */
  public int localIndex() {
    return localId[0] + size[0] * (localId[1] + size[1] * localId[2]);
  }

  public int workgroupInvocations() {
    return size[0] * size[1] * size[2];
  }

  public int globalId(int axis) {
    return globalId[checkAxis(axis)];
  }

  public int localId(int axis) {
    return localId[checkAxis(axis)];
  }

  public int workgroupId(int axis) {
    return workgroupId[checkAxis(axis)];
  }

  public int numWorkgroups(int axis) {
    return numWorkgroups[checkAxis(axis)];
  }

  /**
   * The workgroup's array for this invocation's next shared declaration: kernels declare shared
   * arrays at their top level, so every invocation makes the same declarations in the same order.
   */
  public Object shared(NumericType type, int length) {
    return workgroup.shared(sharedDeclarations++, type, length);
  }

  /** Waits for the other invocations of the workgroup. */
  public void barrier() {
    workgroup.barrier();
  }

  private static int checkAxis(int axis) {
    if (axis < 0 || axis > 2) {
      throw new IllegalArgumentException("axis must be 0, 1 or 2, not " + axis);
    }
    return axis;
  }
}
