package dev.kiln.abi;

/**
 * What a launch gives the {@link LaunchForm}s of its kernel's {@link LaunchBound}s and {@link
 * LaunchProof}s: its scalars, its buffers' lengths, its grids and its workgroup. The runtime's
 * launch implements it; parameters are numbered as the kernel's spec lists them.
 */
public interface LaunchValues {
  /** What a value the launch cannot tell reads: a proof that meets it does not hold. */
  long UNKNOWN = Long.MIN_VALUE;

  /**
   * An int scalar argument.
   *
   * @param param the parameter's index
   * @return its value, or {@link #UNKNOWN} where it is not an int
   */
  long scalar(int param);

  /**
   * A buffer argument's length in elements.
   *
   * @param param the parameter's index
   * @return its length, or {@link #UNKNOWN}
   */
  long length(int param);

  /**
   * An arm's grid along {@code axis}, as the launch gives it (a kernel's: arm 0).
   *
   * @param arm the arm
   * @param axis the axis
   * @return its size, or {@link #UNKNOWN} for an arm the kernel does not have
   */
  long grid(int arm, int axis);

  /**
   * An arm's grid along {@code axis}, rounded up to whole workgroups.
   *
   * @param arm the arm
   * @param axis the axis
   * @return the size
   */
  long roundedGrid(int arm, int axis);

  /**
   * The global ids the launch dispatches along {@code axis}: its largest grid, rounded up to whole
   * workgroups.
   *
   * @param axis the axis
   * @return how many
   */
  long dispatchedIds(int axis);

  /**
   * The kernel's workgroup size along {@code axis}.
   *
   * @param axis the axis
   * @return the size
   */
  long workgroupSize(int axis);
}
