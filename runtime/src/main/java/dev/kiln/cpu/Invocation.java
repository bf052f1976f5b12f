package dev.kiln.cpu;

import dev.kiln.NumericType;

/**
 * The invocation a CPU-backend thread is running, read by {@code Gpu} intrinsics. Dispatches are
 * 1-D: the y and z axes have one workgroup of size one.
 */
public final class Invocation {
  private static final ThreadLocal<Invocation> CURRENT = new ThreadLocal<>();

  private int globalId;
  private int localId;
  private int workgroupId;
  private int numWorkgroups;
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

  void set(Workgroup workgroup, int workgroupId, int localId, int workgroupSize, int numWorkgroups) {
    this.workgroup = workgroup;
    this.workgroupId = workgroupId;
    this.localId = localId;
    this.globalId = workgroupId * workgroupSize + localId;
    this.numWorkgroups = numWorkgroups;
    this.sharedDeclarations = 0;
  }

  public int globalId(int axis) {
    return axis == 0 ? globalId : checkAxis(axis, 0);
  }

  public int localId(int axis) {
    return axis == 0 ? localId : checkAxis(axis, 0);
  }

  public int workgroupId(int axis) {
    return axis == 0 ? workgroupId : checkAxis(axis, 0);
  }

  public int numWorkgroups(int axis) {
    return axis == 0 ? numWorkgroups : checkAxis(axis, 1);
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

  private static int checkAxis(int axis, int value) {
    if (axis == 1 || axis == 2) {
      return value;
    }
    throw new IllegalArgumentException("axis must be 0, 1 or 2, not " + axis);
  }
}
