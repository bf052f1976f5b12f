package dev.kiln.abi;

import java.util.function.IntUnaryOperator;

/**
 * Two buffer parameters of a kernel or group that must not receive the same array: the kernel
 * writes one of them at elements that other invocations may reach through the other, so that with
 * one array the result would depend on the order the device runs its invocations, where Java's loop
 * over them has one. Pairs of one element type only (arrays of two types are never one array), and
 * only where the processor cannot prove every access of both the invocation's own element at one
 * index. A kernel's {@link KernelDescription} carries its conflicts; the runtime refuses a launch
 * that passes one array for both.
 *
 * @param first a buffer parameter: its index in a description, its binding while the processor
 *     works
 * @param second the other buffer parameter, numbered as {@code first}
 */
public record AliasConflict(int first, int second) {
  /**
   * This conflict with its buffers numbered anew.
   *
   * @param renumber a buffer's new number by its old one (the processor's binding to the
   *     parameter's index)
   * @return the conflict
   */
  public AliasConflict numbered(IntUnaryOperator renumber) {
    return new AliasConflict(renumber.applyAsInt(first), renumber.applyAsInt(second));
  }
}
