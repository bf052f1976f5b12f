package dev.kiln.processor.check;

import dev.kiln.processor.diag.Diagnostic;
import dev.kiln.processor.ir.Site;

/**
 * A catalogued error (or warning) a check found at {@code site}: at its tree, or where {@code
 * operand} is not {@link #WHOLE}, at one operand of it ({@link #INDEX}, the index of an array
 * access, or the argument of that position of a call).
 */
public record CheckError(Site site, Diagnostic diagnostic, int operand) {
  /** The site's tree itself. */
  public static final int WHOLE = -1;

  /** The index of an array access tree. */
  public static final int INDEX = -2;

  /** An error at the site's tree itself. */
  public CheckError(Site site, Diagnostic diagnostic) {
    this(site, diagnostic, WHOLE);
  }
}
