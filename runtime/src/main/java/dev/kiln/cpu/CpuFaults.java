package dev.kiln.cpu;

/**
 * Turns what a CPU twin's code threw into the exception the GPU backend reports for the same fault,
 * naming kernel, array and line: called by the generated code, not by users.
 */
public final class CpuFaults {
  private CpuFaults() {}

  /**
   * The exception to throw for {@code thrown}, raised in kernel {@code kernel} after its access
   * number {@code site} of {@code sites} (one line per access: array, "buffer" or "local", line) began.
   */
  public static RuntimeException at(RuntimeException thrown, String sites, int site, String kernel) {
    String where = " in kernel " + kernel;
    return switch (thrown) {
      case ArrayIndexOutOfBoundsException outOfBounds when site >= 0 -> {
        String[] access = sites.split("\n")[site].split("\\|");
        String array = access[1].equals("buffer") ? " of buffer '" + access[0] + "'" : " of a local array";
        ArrayIndexOutOfBoundsException named = new ArrayIndexOutOfBoundsException(
            outOfBounds.getMessage() + array + where + " (line " + access[2] + ")");
        named.setStackTrace(outOfBounds.getStackTrace());
        yield named;
      }
      case ArithmeticException arithmetic -> withStack(new ArithmeticException(arithmetic.getMessage() + where), thrown);
      case IllegalArgumentException argument ->
          withStack(new IllegalArgumentException(argument.getMessage() + where), thrown);
      default -> thrown;
    };
  }

  private static RuntimeException withStack(RuntimeException named, RuntimeException thrown) {
    named.setStackTrace(thrown.getStackTrace());
    return named;
  }
}
