package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code static void} method as a compute kernel. The Kiln annotation processor compiles
 * its body to SPIR-V and generates a launcher class {@code <EnclosingClass>Kernels} with one method
 * per kernel. Each invocation runs the body once; {@code Gpu.globalId(0)} tells which one it is.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Kernel {
  /**
   * Workgroup size along x, y and z: one to three positive numbers.
   *
   * @return the sizes, {@code {64}} by default
   */
  int[] workgroup() default {64};

  /**
   * Whether two copies of this kernel may run in one fused group. A kernel that keeps state across
   * invocations (a cursor, a counter it owns) says {@code false}.
   *
   * @return true by default
   */
  boolean selfComposable() default true;

  /**
   * Whether generated code checks buffer indices against buffer lengths, drops faulty accesses and
   * reports the first one as an {@link IndexOutOfBoundsException}.
   *
   * @return true by default
   */
  boolean boundsChecks() default true;
}
