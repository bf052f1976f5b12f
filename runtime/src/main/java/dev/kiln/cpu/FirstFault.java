package dev.kiln.cpu;

import dev.kiln.abi.ArmFault;

/**
 * The fault Java's loop over a launch's invocations would throw, among those that parts of the
 * launch run side by side threw: the one of the lowest part, parts being numbered in the order Java
 * runs them (workgroups x fastest, then the invocations of each); in a fused group, the one of the
 * lowest arm first ({@link ArmFault}), as Java runs the arms one after the other. Thread-safe.
 */
final class FirstFault {
  private int arm = Integer.MAX_VALUE;
  private long part = Long.MAX_VALUE;
  private Throwable thrown;

  /**
   * Keeps {@code fault}, thrown by part {@code at}, if no lower arm, or lower part in its arm,
   * threw.
   */
  synchronized void offer(long at, Throwable fault) {
    int itsArm = ArmFault.armOf(fault);
    if (itsArm < arm || itsArm == arm && at < part) {
      arm = itsArm;
      part = at;
      thrown = fault;
    }
  }

  /** Whether part {@code at} still matters: no part below it has thrown in the first arm. */
  synchronized boolean before(long at) {
    return arm > 0 || at < part;
  }

  /**
   * The exception of the lowest part that threw (an {@link ArmFault} for an arm after the first),
   * or null.
   */
  synchronized Throwable thrown() {
    return thrown;
  }
}
