package dev.kiln.backend;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchProof;
import dev.kiln.abi.LaunchValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a launch's values prove every {@link LaunchProof} of its module, so that a backend may
 * run the module with those bounds checks left out. The answer depends on the int scalars and
 * buffer lengths the proofs name and on the grids; it is remembered for the last few such values,
 * so that a loop of launches over a few shapes evaluates the proofs once per shape and reads a few
 * ints after.
 */
public final class SettledChecks {
  private static final Map<KernelSpec, SettledChecks> OF_SPEC = new ConcurrentHashMap<>();
  private static final SettledChecks NONE = new SettledChecks(List.of(), new int[0], new int[0]);

  private final List<LaunchProof> proofs;

  /** The parameters whose int value, and whose length, the proofs read. */
  private final int[] scalars;

  private final int[] buffers;

  /**
   * The answers for the last {@link #REMEMBERED} sets of values seen, newest first (nulls before
   * that many launches): a loop over a few shapes evaluates each once. Measured here ({@code
   * SettledChecksCost}): 17 ns for a remembered answer, 15 µs to evaluate the stencil's six proofs.
   */
  private volatile Remembered[] last = new Remembered[REMEMBERED];

  private static final int REMEMBERED = 4;

  /**
   * {@code -Dkiln.explainChecks=true}: each launch that runs checked for want of a proof logs the
   * access it could not settle, once for each set of values ({@code dev.kiln}, level INFO).
   */
  private static final boolean EXPLAIN = Boolean.getBoolean("kiln.explainChecks");

  private record Remembered(long[] values, boolean holds) {}

  private SettledChecks(List<LaunchProof> proofs, int[] scalars, int[] buffers) {
    this.proofs = proofs;
    this.scalars = scalars;
    this.buffers = buffers;
  }

  /**
   * Whether {@code launch}, its grids and arguments set, settles its module's checks: its module
   * has proofs and they all hold. False for a module without proofs, and for a spec without a
   * module.
   *
   * @param launch the launch
   * @return whether the checks the proofs are about can be left out
   */
  public static boolean hold(Launch launch) {
    SettledChecks checks = OF_SPEC.computeIfAbsent(launch.spec(), SettledChecks::read);
    return checks != NONE && checks.holdFor(launch);
  }

  private static SettledChecks read(KernelSpec spec) {
    List<LaunchProof> proofs = KernelDescriptions.of(spec).proofs();
    if (proofs.isEmpty()) {
      return NONE;
    }
    java.util.Set<Integer> read = new java.util.TreeSet<>();
    proofs.forEach(proof -> read.addAll(proof.parameters()));
    List<Integer> scalars = new ArrayList<>();
    List<Integer> buffers = new ArrayList<>();
    for (int param : read) {
      (spec.params().get(param).isBuffer() ? buffers : scalars).add(param);
    }
    return new SettledChecks(
        proofs,
        scalars.stream().mapToInt(Integer::intValue).toArray(),
        buffers.stream().mapToInt(Integer::intValue).toArray());
  }

  private boolean holdFor(Launch launch) {
    Remembered[] remembered = last;
    for (int i = 0; i < remembered.length; i++) { // no iterator: the launch path allocates nothing
      if (remembered[i] != null && sameValues(remembered[i].values(), launch)) {
        return remembered[i].holds();
      }
    }
    long[] values = new long[3 * launch.spec().gridCount() + scalars.length + buffers.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = value(i, launch);
    }
    LaunchProof failed = firstFailed(launch);
    boolean holds = failed == null;
    if (!holds && EXPLAIN) {
      KilnLog.logger().log(System.Logger.Level.INFO, explanation(launch, failed));
    }
    Remembered[] newer = new Remembered[REMEMBERED];
    newer[0] = new Remembered(values, holds);
    System.arraycopy(remembered, 0, newer, 1, REMEMBERED - 1);
    last = newer;
    return holds;
  }

  /** The first of the proofs that {@code launch}'s values do not prove, or null. */
  private LaunchProof firstFailed(Launch launch) {
    for (LaunchProof proof : proofs) {
      if (!proof.holds(launch)) {
        return proof;
      }
    }
    return null;
  }

  /**
   * What {@code -Dkiln.explainChecks=true} logs for {@code launch}: the kernel, its grid and the
   * first access of its module whose check the launch's values do not settle; empty where the
   * launch settles its checks, or its module has no launch proofs.
   *
   * @param launch the launch
   * @return the line
   */
  public static java.util.Optional<String> explanation(Launch launch) {
    SettledChecks checks = OF_SPEC.computeIfAbsent(launch.spec(), SettledChecks::read);
    LaunchProof failed = checks.firstFailed(launch);
    return java.util.Optional.ofNullable(failed).map(proof -> explanation(launch, proof));
  }

  private static String explanation(Launch launch, LaunchProof failed) {
    return launch.spec()
        + " runs with its bounds checks at grid "
        + java.util.Arrays.toString(launch.grid(0))
        + ": the launch's values do not prove "
        + failed.access();
  }

  private boolean sameValues(long[] values, Launch launch) {
    for (int i = 0; i < values.length; i++) { // no iterator: the launch path allocates nothing
      if (values[i] != value(i, launch)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The i-th value the answer depends on: each arm's grid along each axis, the scalars, the
   * lengths.
   */
  private long value(int i, Launch launch) {
    int grids = 3 * launch.spec().gridCount();
    if (i < grids) {
      return launch.gridSize(i / 3, i % 3);
    }
    if (i < grids + scalars.length) {
      return launch.arg(scalars[i - grids]) instanceof Integer value ? value : LaunchValues.UNKNOWN;
    }
    return Launch.lengthOf(launch.arg(buffers[i - grids - scalars.length]));
  }
}
