package dev.kiln.processor.lower;

import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.FixedArray;
import dev.kiln.processor.ir.PrimType;

/** What an array expression in a kernel names: a buffer parameter, or a shared or private array. */
sealed interface ArrayRef {
  ArrayDecl decl();

  default PrimType element() {
    return decl().element();
  }

  record Buffer(BufferDecl decl) implements ArrayRef {}

  /** A shared or private array. */
  record Fixed(FixedArray decl) implements ArrayRef {}
}
