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
      throw new IllegalStateException(
          "Gpu intrinsics can only be called from a kernel run by Kiln");
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

  public int subgroupSize() {
    return workgroup.subgroupSize();
  }

  public int subgroupInvocationId() {
    return localIndex() % workgroup.subgroupSize();
  }

  public int subgroupId() {
    return localIndex() / workgroup.subgroupSize();
  }

  public int numSubgroups() {
    return Math.ceilDiv(workgroupInvocations(), workgroup.subgroupSize());
  }

  /**
   * This invocation's part in subgroup operation {@code op} (a {@code SubgroupLanes} code) on an
   * int.
   */
  public int subgroup(int op, int value, int second, int constant) {
    SubgroupExchange exchange = exchange();
    ((int[]) exchange.values(SubgroupExchange.INT))[lane()] = value;
    return ((int[])
            exchange.meet(lane(), op, SubgroupExchange.INT, second, constant, SubgroupExchange.INT))
        [lane()];
  }

  public long subgroup(int op, long value, int second, int constant) {
    SubgroupExchange exchange = exchange();
    ((long[]) exchange.values(SubgroupExchange.LONG))[lane()] = value;
    return ((long[])
            exchange.meet(
                lane(), op, SubgroupExchange.LONG, second, constant, SubgroupExchange.LONG))
        [lane()];
  }

  public float subgroup(int op, float value, int second, int constant) {
    SubgroupExchange exchange = exchange();
    ((float[]) exchange.values(SubgroupExchange.FLOAT))[lane()] = value;
    return ((float[])
            exchange.meet(
                lane(), op, SubgroupExchange.FLOAT, second, constant, SubgroupExchange.FLOAT))
        [lane()];
  }

  public double subgroup(int op, double value, int second, int constant) {
    SubgroupExchange exchange = exchange();
    ((double[]) exchange.values(SubgroupExchange.DOUBLE))[lane()] = value;
    return ((double[])
            exchange.meet(
                lane(), op, SubgroupExchange.DOUBLE, second, constant, SubgroupExchange.DOUBLE))
        [lane()];
  }

  /** A vote or elect ({@code SubgroupLanes.ANY}, {@code ALL}, {@code ELECT}) on a predicate. */
  public boolean subgroupVote(int op, boolean predicate) {
    SubgroupExchange exchange = exchange();
    ((boolean[]) exchange.values(SubgroupExchange.BOOLEAN))[lane()] = predicate;
    return ((boolean[])
            exchange.meet(lane(), op, SubgroupExchange.BOOLEAN, 0, 0, SubgroupExchange.BOOLEAN))
        [lane()];
  }

  /** The partition of a long value: its bits as an int. */
  public int subgroupPartition(long value) {
    SubgroupExchange exchange = exchange();
    ((long[]) exchange.values(SubgroupExchange.LONG))[lane()] = value;
    return ((int[])
            exchange.meet(
                lane(),
                dev.kiln.abi.SubgroupLanes.PARTITION,
                SubgroupExchange.LONG,
                0,
                0,
                SubgroupExchange.INT))
        [lane()];
  }

  public int subgroupBallot(boolean predicate) {
    SubgroupExchange exchange = exchange();
    ((boolean[]) exchange.values(SubgroupExchange.BOOLEAN))[lane()] = predicate;
    return ((int[])
            exchange.meet(
                lane(),
                dev.kiln.abi.SubgroupLanes.BALLOT,
                SubgroupExchange.BOOLEAN,
                0,
                0,
                SubgroupExchange.INT))
        [lane()];
  }

  /** The invocation has ended: its subgroup goes on without it. */
  void leaveSubgroup() {
    workgroup.exchange(subgroupId()).leave(lane());
  }

  private SubgroupExchange exchange() {
    return workgroup.exchange(subgroupId());
  }

  private int lane() {
    return subgroupInvocationId();
  }

  /**
   * Waits for the other invocations of the workgroup (its subgroup told, which must not wait for it
   * meanwhile).
   */
  public void barrier() {
    exchange().awayAtBarrier(lane());
    workgroup.barrier();
  }

  private static int checkAxis(int axis) {
    if (axis < 0 || axis > 2) {
      throw new IllegalArgumentException("axis must be 0, 1 or 2, not " + axis);
    }
    return axis;
  }
}
