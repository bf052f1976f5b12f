package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a kernel into a named fuse group: the kernels of one class that name the same group are
 * compiled into one program that runs them one after the other in a single dispatch.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
@Repeatable(FuseGroup.List.class)
public @interface FuseGroup {
  /**
   * The group's name; the launcher gets a method of this name.
   *
   * @return the name
   */
  String value();

  /**
   * Position of this kernel in the group; kernels with equal order keep declaration order.
   *
   * @return the position, 0 by default
   */
  int order() default 0;

  /** Holder of repeated {@link FuseGroup} annotations. */
  @Documented
  @Retention(RetentionPolicy.CLASS)
  @Target(ElementType.METHOD)
  @interface List {
    /**
     * The groups the kernel is in.
     *
     * @return one annotation per group
     */
    FuseGroup[] value();
  }
}
