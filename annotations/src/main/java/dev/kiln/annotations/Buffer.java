package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * States how a kernel uses an array parameter. Without it the access is inferred from the body;
 * with it the body is checked against the statement.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Buffer {
  /**
   * What the kernel does to the array.
   *
   * @return reads, writes, or both
   */
  Access value();
}
