package dev.kiln;

import dev.kiln.cpu.Invocation;

/**
 * Kernel intrinsics. Inside a kernel compiled by Kiln each call becomes the matching GPU built-in;
 * when the CPU backend runs the kernel as Java they answer for the invocation being run. Called
 * outside a kernel they throw {@link IllegalStateException}.
 */
public final class Gpu {
  private Gpu() {}

  /** Index of this invocation in the whole dispatch along {@code axis} (0, 1 or 2). */
  public static int globalId(int axis) {
    return Invocation.current().globalId(axis);
  }

  /** Index of this invocation inside its workgroup along {@code axis}. */
  public static int localId(int axis) {
    return Invocation.current().localId(axis);
  }

  /** Index of this invocation's workgroup along {@code axis}. */
  public static int workgroupId(int axis) {
    return Invocation.current().workgroupId(axis);
  }

  /** Number of workgroups in the dispatch along {@code axis}. */
  public static int numWorkgroups(int axis) {
    return Invocation.current().numWorkgroups(axis);
  }
}
