package dev.kiln.processor.ir;

/**
 * An array whose length the program fixes: workgroup memory or an invocation's own array. Java
 * allows any int length; the kernel language needs a positive constant, which {@code
 * check.ArrayDeclarations} demands of a program before any pass or writer reads {@link #size()}.
 */
public sealed interface FixedArray extends ArrayDecl permits SharedArray, PrivateArray {
  /** The length as written, folded. */
  Expr length();

  /** Where the array is created, for messages. */
  Site site();

  /** Whether the length is a positive constant. */
  default boolean hasConstantLength() {
    return length() instanceof Expr.IntConst(int n) && n > 0;
  }

  /** The length of a checked program's array. */
  default int size() {
    if (length() instanceof Expr.IntConst(int n) && n > 0) {
      return n;
    }
    throw new IllegalStateException(
        "array " + name() + " has no constant positive length; it was not checked");
  }
}
