package dev.kiln.cpu;

import dev.kiln.abi.SubgroupLanes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the lanes of one subgroup, run as virtual threads by the kernel methods, meet at each
 * subgroup operation: each hands over its value, the last to arrive applies the operation for all
 * ({@link SubgroupLanes#apply}), and each takes its result. The lanes must reach the same
 * operations in the same order (subgroup-uniform control flow); a lane that has ended is inactive.
 */
final class SubgroupExchange {
  private final int lanes;
  private final boolean[] inactive;

  /** Lanes waiting at the workgroup's barrier: they cannot come here before the others pass it. */
  private final boolean[] away;

  private int awayCount;
  private final Object[] values =
      new Object[5]; // int, long, float, double, boolean: one array each
  private final Object[] results = new Object[5];
  private final int[] seconds;
  private final int[] ops;
  private final List<Thread> parked = new ArrayList<>();
  private int parties;
  private int waiting;
  private int constant;
  private RuntimeException failure;
  private volatile long phase;

  /**
   * @param lanes the lanes of this subgroup that the workgroup has (the last subgroup may have
   *     fewer)
   */
  SubgroupExchange(int lanes) {
    this.lanes = lanes;
    this.parties = lanes;
    this.inactive = new boolean[lanes];
    this.away = new boolean[lanes];
    this.seconds = new int[lanes];
    this.ops = new int[lanes];
    for (Object[] arrays : new Object[][] {values, results}) {
      arrays[0] = new int[lanes];
      arrays[1] = new long[lanes];
      arrays[2] = new float[lanes];
      arrays[3] = new double[lanes];
      arrays[4] = new boolean[lanes];
    }
  }

  static final int INT = 0;
  static final int LONG = 1;
  static final int FLOAT = 2;
  static final int DOUBLE = 3;
  static final int BOOLEAN = 4;

  /**
   * Lane {@code lane}'s part of operation {@code op} on its value of kind {@code kind} ({@link
   * #INT} to {@link #BOOLEAN}), which the caller has written to its slot of {@link #values}, with
   * its {@code second} operand and the operation's {@code constant}; returns the array of kind
   * {@code resultKind} that holds the results, which the caller reads at {@code lane}.
   */
  Object meet(int lane, int op, int kind, int second, int constant, int resultKind) {
    long arrivedIn;
    synchronized (this) {
      arrivedIn = phase;
      ops[lane] = op * 8 + kind;
      seconds[lane] = second;
      this.constant = constant;
      if (++waiting == parties) {
        return result(apply(kind, resultKind));
      }
      if (awayCount > 0 && waiting + awayCount == parties) {
        return result(diverged());
      }
      parked.add(Thread.currentThread());
    }
    while (phase == arrivedIn) {
      LockSupport.park(this);
    }
    synchronized (this) {
      if (failure != null) {
        throw failure;
      }
      return results[resultKind];
    }
  }

  Object values(int kind) {
    return values[kind];
  }

  /** The calling lane has ended: it is inactive from now on. */
  synchronized void leave(int lane) {
    inactive[lane] = true;
    parties--;
    if (waiting > 0 && waiting == parties) {
      int first = 0;
      while (inactive[first]) {
        first++;
      }
      apply(ops[first] % 8, resultKindOf(ops[first] / 8, ops[first] % 8));
    } else if (waiting > 0 && awayCount > 0 && waiting + awayCount == parties) {
      diverged();
    }
  }

  /**
   * The lane waits at the workgroup's barrier; lanes of its subgroup waiting here now never meet
   * it.
   */
  synchronized void awayAtBarrier(int lane) {
    away[lane] = true;
    awayCount++;
    if (waiting > 0 && waiting + awayCount == parties) {
      diverged();
    }
  }

  /**
   * The workgroup's barrier has opened: every lane is back (called by its last arrival, before any
   * lane goes on).
   */
  synchronized void barrierPassed() {
    java.util.Arrays.fill(away, false);
    awayCount = 0;
  }

  /**
   * Called holding the monitor: some lanes wait here, the others at a barrier. Releases those here
   * with the failure.
   */
  private Object diverged() {
    failure =
        new IllegalStateException(
            "lanes of a subgroup wait at a subgroup operation while others wait at a"
                + " barrier: the kernel methods run subgroup operations only in subgroup-uniform control flow");
    return release();
  }

  private Object result(Object results) {
    if (failure != null) {
      throw failure;
    }
    return results;
  }

  /**
   * Called holding the monitor, once every active lane has arrived: the operation, then the next
   * phase.
   */
  private Object apply(int kind, int resultKind) {
    failure = null;
    int op = -1;
    for (int lane = 0; lane < lanes; lane++) {
      if (!inactive[lane]) {
        if (op >= 0 && ops[lane] != op) {
          failure =
              new IllegalStateException(
                  "the lanes of a subgroup reached different subgroup operations (lane "
                      + lane
                      + " operation "
                      + ops[lane] / 8
                      + ", another "
                      + op / 8
                      + "; dev.kiln.abi.SubgroupLanes numbers"
                      + " them): the kernel methods run them only in subgroup-uniform control flow (the GPU's results would"
                      + " depend on how its lanes reconverge)");
        }
        op = ops[lane];
      }
    }
    if (failure == null) {
      try {
        SubgroupLanes.apply(
            op / 8,
            op / 8 == SubgroupLanes.ELECT ? null : values[kind],
            seconds,
            constant,
            results[resultKind],
            inactive,
            0,
            lanes);
      } catch (RuntimeException refused) { // every waiting lane throws it, none is left parked
        failure = refused;
      }
    }
    release();
    return results[resultKind];
  }

  /** Called holding the monitor: the next phase, and the waiting lanes woken. */
  private Object release() {
    waiting = 0;
    phase++;
    parked.forEach(LockSupport::unpark);
    parked.clear();
    return null;
  }

  /**
   * The kind of an operation's result: an int for a ballot, a boolean for votes and elect, else the
   * value's.
   */
  static int resultKindOf(int op, int kind) {
    return switch (op) {
      case SubgroupLanes.BALLOT, SubgroupLanes.PARTITION -> INT;
      case SubgroupLanes.ANY, SubgroupLanes.ALL, SubgroupLanes.ELECT -> BOOLEAN;
      default -> kind;
    };
  }
}
