package dev.kiln.processor.ir;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local variable holding a cooperative matrix: a 16 x 16 tile the invocations of a subgroup hold
 * together (docs/KERNELS.md, "Cooperative matrices"). Fragments live in Function storage only;
 * {@link MatrixOp}s read and write them. Like {@link Local}s, two fragments are equal only if they
 * are the same variable.
 */
public record Fragment(String name, Use use, int id) {
  private static final AtomicInteger IDS = new AtomicInteger();

  /** The rows and columns of every fragment (M = N = K). */
  public static final int SIDE = dev.kiln.abi.LaunchAbi.MATRIX_SIDE;

  /** Its role in a multiply-add, and so its component type. */
  public enum Use {
    /** The left factor, of float16s or bfloat16s. */
    A,
    /** The right factor, of float16s or bfloat16s. */
    B,
    /** The accumulator and result, of floats. */
    ACCUMULATOR
  }

  /** The type of a fragment's elements: A and B tiles hold 16-bit floats, accumulators floats. */
  public enum Element {
    /** IEEE binary16. */
    FLOAT16,
    /** bfloat16, a float's upper 16 bits. */
    BFLOAT16,
    /** A 32-bit float: every accumulator's. */
    FLOAT
  }

  /** A new fragment, distinct from every other. */
  public static Fragment fresh(String name, Use use) {
    return new Fragment(name, use, IDS.getAndIncrement());
  }
}
