package dev.kiln.cpu;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.abi.SubgroupLanes;
import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBatch;
import dev.kiln.backend.BackendBuffer;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import dev.kiln.backend.StartupTrace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Runs kernels on the CPU with Java semantics, the reference for every other backend, in one of two
 * ways:
 *
 * <ul>
 *   <li>Through the kernel's or group's {@link CpuTwin}, the loops the processor generated from its
 *       IR: a launch is split into chunks of workgroups run on a fork-join pool of {@code
 *       -Dkiln.cpu.threads} threads (all cores by default), a small one on the caller's thread.
 *   <li>Without a twin, or with {@code -Dkiln.cpu=java}, as the Java methods they were written as:
 *       one call per invocation, workgroups in parallel on the common fork-join pool, a group's
 *       arms one after the other. The invocations of a workgroup run one after the other, except in
 *       kernels with barriers: there they run side by side as virtual threads meeting at a {@link
 *       WorkgroupBarrier}, and whole workgroups run, as on the GPU; so do the invocations of
 *       kernels that use subgroups, which meet at each subgroup operation ({@link
 *       SubgroupExchange}).
 * </ul>
 *
 * Both emulate subgroups of {@code -Dkiln.cpu.subgroupSize} lanes (32 by default; see {@link
 * SubgroupLanes}).
 */
public final class CpuBackend implements Backend {
  private final AtomicInteger openBatches = new AtomicInteger();
  private final Map<KernelSpec, Placement> placements = new ConcurrentHashMap<>();

  /**
   * Whether launches run through twins where there are: not where {@code -Dkiln.cpu=java} was set
   * on opening.
   */
  private final boolean twins = !"java".equals(System.getProperty("kiln.cpu"));

  /**
   * The lanes of the subgroups it emulates ({@code -Dkiln.cpu.subgroupSize}, 32 by default), read
   * on opening.
   */
  private final int subgroupSize = SubgroupLanes.size();

  @Override
  public String deviceName() {
    return "Java "
        + Runtime.version().feature()
        + " on "
        + Runtime.getRuntime().availableProcessors()
        + " cores"
        + (twins ? "" : ", kernel methods (kiln.cpu=java)");
  }

  @Override
  public String kind() {
    return "cpu";
  }

  @Override
  public int subgroupSize() {
    return subgroupSize;
  }

  @Override
  public boolean validationEnabled() {
    return false;
  }

  @Override
  public Capacity capacity() {
    Runtime runtime = Runtime.getRuntime();
    long max = runtime.maxMemory();
    return new Capacity(max, max - (runtime.totalMemory() - runtime.freeMemory()));
  }

  @Override
  public BackendBuffer allocate(NumericType type, int length) {
    return new CpuBuffer(type, type.newArray(length));
  }

  /** The Java arrays themselves, viewed as buffers: the kernel writes them in place. */
  @Override
  public long dispatchOnArrays(Launch launch, boolean timed) {
    for (int param = 0; param < launch.spec().params().size(); param++) {
      if (launch.spec().params().get(param).isBuffer()) {
        Object array = launch.arg(param);
        launch.arg(param, new CpuBuffer(NumericType.ofArray(array), array));
      }
    }
    return dispatch(launch, timed);
  }

  /** A kernel over its grid, or a group's arms, each over its own grid; wall time. */
  @Override
  public long dispatch(Launch launch, boolean timed) {
    long start = System.nanoTime();
    KernelSpec spec = launch.spec();
    Object[] args = launch.arguments();
    StartupTrace.mark("first launch: launcher called");
    Optional<CpuTwin> twin = twins ? CpuTwin.of(spec) : Optional.empty();
    StartupTrace.mark("first launch: CPU twin looked up");
    if (twin.isPresent()) {
      TwinLaunch.run(twin.get(), launch, javaArrays(args), subgroupSize);
    } else if (spec.arms().isEmpty()) {
      run(launch, spec, launch.grid(0), args);
    } else {
      for (int k = 0; k < spec.arms().size(); k++) {
        int[] grid = launch.grid(k);
        if (grid[0] != 0 && grid[1] != 0 && grid[2] != 0) {
          KernelSpec.Arm arm = spec.arms().get(k);
          run(launch, arm.kernel(), grid, arm.arguments(args));
        }
      }
    }
    StartupTrace.mark("first launch: ran");
    StartupTrace.reportFirstLaunch();
    return System.nanoTime() - start;
  }

  /** The arguments with each buffer as its Java array. */
  private static Object[] javaArrays(Object[] args) {
    Object[] javaArgs = new Object[args.length];
    for (int i = 0; i < args.length; i++) {
      javaArgs[i] = args[i] instanceof CpuBuffer buffer ? buffer.array() : args[i];
    }
    return javaArgs;
  }

  private void run(Launch launch, KernelSpec spec, int[] grid, Object[] args) {
    Object[] javaArgs = javaArrays(args);
    int[] size = {spec.workgroup(0), spec.workgroup(1), spec.workgroup(2)};
    int[] groups = {
      Math.ceilDiv(grid[0], size[0]), Math.ceilDiv(grid[1], size[1]), Math.ceilDiv(grid[2], size[2])
    };
    KernelSpec.CpuBody body = spec.cpuBody();
    Placement placement = placements.computeIfAbsent(spec, this::placement);
    boolean sideBySide = placement.sideBySide();
    int first =
        launch.firstGroup(
            size[0]); // a part of a split launch runs some workgroups (along x: it is 1-D)
    int end = launch.endGroup(size[0], groups[0] * groups[1] * groups[2]);
    FirstFault failure =
        new FirstFault(); // workgroups run side by side: Java's is the lowest one's fault
    IntStream.range(first, end)
        .parallel()
        .forEach(
            linear -> {
              if (!failure.before(linear)) {
                return;
              }
              int[] group = {
                linear % groups[0], linear / groups[0] % groups[1], linear / (groups[0] * groups[1])
              };
              try {
                if (sideBySide) {
                  runSideBySide(
                      body,
                      javaArgs,
                      placement.wholeWorkgroups() ? null : grid,
                      group,
                      size,
                      groups,
                      subgroupSize);
                } else {
                  runInOrder(body, javaArgs, grid, group, size, groups);
                }
              } catch (RuntimeException | Error e) {
                failure.offer(linear, e);
              }
            });
    switch (failure.thrown()) {
      case null -> {}
      case RuntimeException thrown ->
          throw thrown.getMessage() == null ? described(thrown, spec) : thrown;
      case Error e -> throw e;
      case Throwable t -> throw new IllegalStateException(t);
    }
  }

  /**
   * The JIT's preallocated exception, which a fault thrown often enough becomes (no message, no
   * stack), as one of its kind that names the kernel and how to keep the details.
   */
  private static RuntimeException described(RuntimeException bare, KernelSpec spec) {
    String message =
        "in kernel "
            + spec
            + ": the JVM threw this fault often enough to drop its details (index,"
            + " line); run with -XX:-OmitStackTraceInFastThrow to keep them, or without -Dkiln.cpu=java (the CPU twins"
            + " name them always)";
    return switch (bare) {
      case ArrayIndexOutOfBoundsException outOfBounds ->
          new ArrayIndexOutOfBoundsException(message);
      case ArithmeticException arithmetic -> new ArithmeticException(message);
      case NullPointerException nullPointer -> new NullPointerException(message);
      default -> new IllegalStateException(bare.getClass().getName() + " " + message, bare);
    };
  }

  private static boolean inside(int[] grid, int[] group, int[] local, int[] size) {
    return group[0] * size[0] + local[0] < grid[0]
        && group[1] * size[1] + local[1] < grid[1]
        && group[2] * size[2] + local[2] < grid[2];
  }

  /** The local ids of invocation number {@code linear} of a workgroup. */
  private static int[] local(int linear, int[] size) {
    return new int[] {linear % size[0], linear / size[0] % size[1], linear / (size[0] * size[1])};
  }

  @Override
  public BackendBatch batch() {
    return batch(false);
  }

  @Override
  public BackendBatch recording() {
    return batch(true);
  }

  /**
   * A batch that runs its launches, in order, on the thread that awaits it; again after each {@code
   * replay} where {@code replayable}.
   */
  private BackendBatch batch(boolean replayable) {
    openBatches.incrementAndGet();
    return new BackendBatch() {
      private final List<Launch> launches = new ArrayList<>();
      private boolean closed;
      private boolean ran;
      private int runs = 1;
      private RuntimeException failure;
      private long nanos = -1;

      @Override
      public void record(Launch launch) {
        launches.add(launch.copy());
      }

      @Override
      public void submit() {}

      @Override
      public synchronized void replay(int runs) {
        if (!replayable || !ran) {
          throw new IllegalStateException(
              !replayable
                  ? "only a recording is replayed"
                  : "the recording's last run was not awaited");
        }
        this.runs = runs;
        ran = false;
        failure = null;
        nanos = -1;
      }

      @Override
      public synchronized void await() {
        if (!ran) {
          ran = true;
          long start = System.nanoTime();
          try {
            for (int run = 0; run < runs; run++) {
              start = System.nanoTime();
              launches.forEach(launch -> dispatch(launch, false));
            }
          } catch (RuntimeException e) {
            failure = e;
          }
          nanos = System.nanoTime() - start;
        }
        if (failure != null) {
          throw failure;
        }
      }

      @Override
      public long deviceNanos() {
        return nanos;
      }

      @Override
      public synchronized void close() {
        launches.clear();
        if (!closed) {
          closed = true;
          openBatches.decrementAndGet();
        }
      }
    };
  }

  /**
   * No recorders, and no native buffers: the arrays are Java arrays ({@code Device.memory()} counts
   * them).
   */
  @Override
  public Resources resources() {
    return new Resources(0, openBatches.get(), 0);
  }

  /**
   * How a kernel's invocations run: side by side where it has barriers, or subgroups of more than
   * one lane and subgroup operations or cooperative matrices; whole workgroups (past the grid too)
   * where it has barriers.
   */
  private record Placement(boolean sideBySide, boolean wholeWorkgroups) {}

  private Placement placement(KernelSpec spec) {
    // a kernel the processor did not compile (declared: no barriers) cannot call Gpu.barrier()
    // successfully either
    KernelDescription kernel = KernelDescriptions.of(spec);
    return new Placement(
        kernel.usesBarriers()
            || (kernel.usesSubgroups() || kernel.usesMatrices()) && subgroupSize > 1,
        kernel.usesBarriers());
  }

  /** The workgroup's invocations inside the grid, one after the other. */
  private static void runInOrder(
      KernelSpec.CpuBody body, Object[] args, int[] grid, int[] group, int[] size, int[] groups) {
    Workgroup workgroup = new Workgroup(null, 1, size[0] * size[1] * size[2]);
    Invocation invocation = Invocation.enter();
    try {
      for (int linear = 0; linear < size[0] * size[1] * size[2]; linear++) {
        int[] local = local(linear, size);
        if (inside(grid, group, local, size)) {
          invocation.set(workgroup, group, local, size, groups);
          body.invoke(args);
        }
      }
    } finally {
      Invocation.exit();
    }
  }

  /**
   * The workgroup's invocations, as virtual threads that meet at its barrier and their subgroups'
   * exchanges: all of them, or where {@code grid} is given (a kernel without barriers) those inside
   * it; the others are inactive lanes, as on the GPU.
   */
  private static void runSideBySide(
      KernelSpec.CpuBody body,
      Object[] args,
      int[] grid,
      int[] group,
      int[] size,
      int[] groups,
      int subgroupSize) {
    int invocations = size[0] * size[1] * size[2];
    WorkgroupBarrier barrier = new WorkgroupBarrier(invocations);
    Workgroup workgroup = new Workgroup(barrier, subgroupSize, invocations);
    FirstFault failure = new FirstFault(); // the lowest invocation's, as Java's loop would throw
    List<Thread> threads = new ArrayList<>(invocations);
    for (int linear = 0; linear < invocations; linear++) {
      int[] local = local(linear, size);
      int index = linear;
      threads.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    Invocation invocation = Invocation.enter();
                    try {
                      invocation.set(workgroup, group, local, size, groups);
                      if (grid == null || inside(grid, group, local, size)) {
                        body.invoke(args);
                      }
                    } catch (Throwable t) {
                      failure.offer(index, t);
                    } finally {
                      barrier.leave();
                      Invocation.current().leaveSubgroup();
                      Invocation.exit();
                    }
                  }));
    }
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while running a workgroup", e);
      }
    }
    Throwable thrown = failure.thrown();
    if (thrown instanceof RuntimeException e) {
      throw e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
  }

  @Override
  public void close() {}
}
