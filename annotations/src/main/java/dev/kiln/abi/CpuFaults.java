package dev.kiln.abi;

import java.lang.invoke.MethodType;
import java.lang.reflect.Array;

/**
 * Turns what a CPU twin's code threw into the exception the GPU backend reports for the same fault,
 * naming kernel, array, index and line: called by the generated code, not by users.
 */
public final class CpuFaults {
  /** The type of {@link #at}, which the twins call. */
  public static final MethodType AT_TYPE =
      MethodType.methodType(
          RuntimeException.class,
          RuntimeException.class,
          String.class,
          int.class,
          Object.class,
          int.class,
          String.class,
          int.class);

  private static final String BUFFER = "buffer";
  private static final String LOCAL = "local";

  private CpuFaults() {}

  /**
   * One line of a twin's access table, which the processor writes in access order and {@link #at}
   * reads back.
   *
   * @param array the accessed array's name
   * @param buffer whether it is a buffer, else a workgroup or private array
   * @param line the access's source line
   * @return the line, with its newline
   */
  public static String site(String array, boolean buffer, int line) {
    return array + '|' + (buffer ? BUFFER : LOCAL) + '|' + line + '\n';
  }

  /**
   * The line of a twin's access table for a {@code System.arraycopy}: both arrays, each with
   * whether it is a buffer, and the line.
   *
   * @param source the source array's name
   * @param sourceBuffer whether the source is a buffer
   * @param target the destination array's name
   * @param targetBuffer whether the destination is a buffer
   * @param line the copy's source line
   * @return the line, with its newline
   */
  public static String copySite(
      String source, boolean sourceBuffer, String target, boolean targetBuffer, int line) {
    return source
        + '|'
        + (sourceBuffer ? BUFFER : LOCAL)
        + '|'
        + line
        + '|'
        + target
        + '|'
        + (targetBuffer ? BUFFER : LOCAL)
        + '\n';
  }

  /**
   * The exception to throw for {@code thrown}, raised in kernel {@code kernel} after its access
   * number {@code site} of {@code sites} (one {@link #site} per access) began, on {@code array} at
   * {@code index}. The message is made from these, not taken from {@code thrown}: once a site is
   * hot the JIT throws preallocated exceptions without one.
   *
   * @param thrown what the twin's code threw
   * @param sites the twin's access table
   * @param site the number of the access that began last, or -1
   * @param array the array of that access
   * @param index its index
   * @param kernel {@code Owner#name}, for the message
   * @param arm the fused group's arm that threw, 0 for a kernel
   * @return the exception to throw, in an {@link ArmFault} for an arm after a group's first
   */
  public static RuntimeException at(
      RuntimeException thrown,
      String sites,
      int site,
      Object array,
      int index,
      String kernel,
      int arm) {
    RuntimeException named = named(thrown, sites, site, array, index, kernel);
    return arm == 0 ? named : new ArmFault(arm, named);
  }

  private static RuntimeException named(
      RuntimeException thrown, String sites, int site, Object array, int index, String kernel) {
    String where = " in kernel " + kernel;
    String[] access = site >= 0 && array != null ? sites.split("\n")[site].split("\\|") : null;
    RuntimeException named =
        switch (thrown) {
          case ArrayIndexOutOfBoundsException outOfBounds
              when access != null && access.length > 3 ->
              copy(outOfBounds, access, where);
          case ArrayIndexOutOfBoundsException outOfBounds when access != null -> {
            String which =
                access[1].equals(BUFFER) ? " of buffer '" + access[0] + "'" : " of a local array";
            yield new ArrayIndexOutOfBoundsException(
                "Index "
                    + index
                    + " out of bounds for length "
                    + Array.getLength(array)
                    + which
                    + where
                    + " (line "
                    + access[2]
                    + ")");
          }
          // the JIT's preallocated exception of a hot division has no message; Math's own always
          // have one
          case ArithmeticException arithmetic ->
              new ArithmeticException(
                  (arithmetic.getMessage() == null ? "/ by zero" : arithmetic.getMessage())
                      + where);
          case IllegalArgumentException argument ->
              new IllegalArgumentException(argument.getMessage() + where);
          default -> null;
        };
    if (named == null) {
      return thrown;
    }
    named.setStackTrace(thrown.getStackTrace());
    return named;
  }

  /**
   * A copy's fault ({@link #copySite}): {@code System.arraycopy}'s own words, which say the side,
   * then that array and the line; both arrays where the exception has no words.
   */
  private static ArrayIndexOutOfBoundsException copy(
      ArrayIndexOutOfBoundsException thrown, String[] access, String where) {
    String words = thrown.getMessage();
    String arrays;
    if (words == null) {
      words = "arraycopy: a range out of bounds";
      arrays = describe(access[0], access[1]) + " or " + describe(access[3], access[4]);
    } else {
      arrays =
          words.contains("destination")
              ? describe(access[3], access[4])
              : describe(access[0], access[1]);
    }
    return new ArrayIndexOutOfBoundsException(
        words + " (" + arrays + ")" + where + " (line " + access[2] + ")");
  }

  private static String describe(String name, String kind) {
    return kind.equals(BUFFER) ? "buffer '" + name + "'" : "a local array";
  }
}
