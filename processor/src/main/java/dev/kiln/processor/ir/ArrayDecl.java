package dev.kiln.processor.ir;

/** An array a program indexes: a storage buffer, workgroup memory, or an invocation's own array. */
public sealed interface ArrayDecl permits BufferDecl, FixedArray {
  /** The name, unique among the program's arrays. */
  String name();

  PrimType element();
}
