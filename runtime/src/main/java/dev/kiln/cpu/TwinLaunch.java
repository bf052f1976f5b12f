package dev.kiln.cpu;

import dev.kiln.abi.ArmFault;
import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * A launch through a {@link CpuTwin}: its workgroups, numbered x fastest, split into about four
 * chunks per thread of a fork-join pool ({@code -Dkiln.cpu.threads}, all cores by default); a
 * launch of fewer than {@value #SMALL} invocations, or with one thread, runs on the caller's
 * thread. A fuse group of more than one tile runs as its twin or as {@link TiledArms}, as {@link
 * GroupForm} chooses. Where chunks throw, the lowest chunk's exception is rethrown as it was
 * thrown: a chunk runs its workgroups in order, so that is the fault of the lowest invocation that
 * faults, as in Java's loop ({@link FirstFault}); in a fused group, of the lowest arm that faults
 * first, as Java runs the arms one after the other (the launch is told which: {@link
 * Launch#faultArm}).
 */
final class TwinLaunch {
  static final int SMALL = 1 << 14;
  private static final int CHUNKS_PER_THREAD = 4;

  private TwinLaunch() {}

  /** Runs workgroups {@code first .. end-1} of the launch. */
  @FunctionalInterface
  private interface Chunk {
    void run(int first, int end);
  }

  /** The pool, made on first use with the configured parallelism. */
  private static final class Pool {
    static final int THREADS =
        Integer.getInteger("kiln.cpu.threads", Runtime.getRuntime().availableProcessors());
    static final ForkJoinPool POOL = THREADS > 1 ? new ForkJoinPool(THREADS) : null;
  }

  static void run(CpuTwin twin, Launch launch, Object[] args, int subgroupSize) {
    try {
      runGroups(twin, launch, args, subgroupSize);
    } catch (ArmFault fault) {
      launch.faultArm(fault.arm());
      throw fault.fault();
    }
  }

  private static void runGroups(CpuTwin twin, Launch launch, Object[] args, int subgroupSize) {
    KernelSpec spec = launch.spec();
    int arms = Math.max(1, spec.arms().size());
    int[] grids = new int[3 * arms];
    for (int arm = 0; arm < arms; arm++) {
      for (int axis = 0; axis < 3; axis++) {
        grids[3 * arm + axis] = launch.gridSize(arm, axis);
      }
    }
    int[] dispatch =
        spec.arms().isEmpty()
            ? new int[] {grids[0], grids[1], grids[2]}
            : new int[] {launch.dispatchSize(0), launch.dispatchSize(1), launch.dispatchSize(2)};
    long workgroups = 1;
    for (int axis = 0; axis < 3; axis++) {
      workgroups *= Math.ceilDiv(dispatch[axis], spec.workgroup(axis));
    }
    if (workgroups == 0) {
      return;
    }
    int end =
        launch.endGroup(
            spec.workgroup(0), Math.toIntExact(workgroups)); // a part of a split launch: some
    int first = launch.firstGroup(spec.workgroup(0));
    long invocations =
        (long) (end - first) * spec.workgroup(0) * spec.workgroup(1) * spec.workgroup(2);
    Chunk ofTwin = (from, to) -> twin.run(args, grids, dispatch, from, to, subgroupSize);
    if (spec.arms().isEmpty() || invocations <= TiledArms.TILE) {
      run(first, end, invocations, ofTwin);
      return;
    }
    GroupForm form = GroupForm.of(spec);
    boolean tiledNext = form.tiledNext();
    TiledArms tiled = tiledNext ? TiledArms.of(launch, args, subgroupSize).orElse(null) : null;
    if (tiledNext && tiled == null) {
      form.untileable();
    }
    long start = System.nanoTime();
    run(first, end, invocations, tiled != null ? tiled::run : ofTwin);
    form.record(tiled != null, System.nanoTime() - start, invocations);
  }

  /**
   * Runs workgroups {@code begin .. end-1}, {@code invocations} in all, in chunks of {@code part}
   * on the pool.
   */
  private static void run(int begin, int end, long invocations, Chunk part) {
    int groups = end - begin;
    if (Pool.POOL == null || invocations < SMALL || groups == 1) {
      part.run(begin, end);
      return;
    }
    int chunks = (int) Math.min(groups, (long) Pool.THREADS * CHUNKS_PER_THREAD);
    FirstFault failure = new FirstFault();
    List<ForkJoinTask<?>> tasks = new ArrayList<>(chunks);
    for (int chunk = 0; chunk < chunks; chunk++) {
      int first = begin + (int) ((long) groups * chunk / chunks);
      int last = begin + (int) ((long) groups * (chunk + 1) / chunks);
      tasks.add(
          Pool.POOL.submit(
              () -> {
                if (failure.before(
                    first)) { // else a lower chunk failed in the first arm: Java never gets here
                  try {
                    part.run(first, last);
                  } catch (RuntimeException | Error e) {
                    failure.offer(first, e);
                  }
                }
              }));
    }
    tasks.forEach(ForkJoinTask::join);
    switch (failure.thrown()) {
      case null -> {}
      case RuntimeException e -> throw e;
      case Error e -> throw e;
      case Throwable t -> throw new IllegalStateException(t);
    }
  }
}
