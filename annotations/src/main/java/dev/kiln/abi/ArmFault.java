package dev.kiln.abi;

/**
 * A fused group's fault in an arm after its first, as its CPU twin throws it: Java runs a group's
 * arms one after the other, so the runtime keeps the fault of the lowest arm that faults (then of
 * its lowest invocation), and throws the fault itself. Not for users: only the CPU backend sees it.
 */
public final class ArmFault extends RuntimeException {
  /** The serialized form's version. */
  private static final long serialVersionUID = 1L;

  /** The index in its group of the arm whose code threw. */
  private final int arm;

  /**
   * The fault {@code fault}, thrown in arm {@code arm}.
   *
   * @param arm the arm's index in its group, from 0
   * @param fault the exception Java throws for it
   */
  public ArmFault(int arm, RuntimeException fault) {
    super(null, fault, false, false);
    this.arm = arm;
  }

  /**
   * The arm whose code threw.
   *
   * @return the arm's index in its group
   */
  public int arm() {
    return arm;
  }

  /**
   * The exception Java throws.
   *
   * @return the fault
   */
  public RuntimeException fault() {
    return (RuntimeException) getCause();
  }

  /**
   * The arm {@code thrown} was thrown in: its own where it is an {@code ArmFault}, else 0.
   *
   * @param thrown what a launch threw
   * @return the arm
   */
  public static int armOf(Throwable thrown) {
    return thrown instanceof ArmFault fault ? fault.arm : 0;
  }
}
