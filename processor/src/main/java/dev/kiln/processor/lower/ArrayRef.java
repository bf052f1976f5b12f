package dev.kiln.processor.lower;

import dev.kiln.processor.ir.PrimType;

/** What an array expression in a kernel names: a buffer parameter, or a shared or private array. */
sealed interface ArrayRef {
  String name();

  PrimType element();

  record Buffer(Scope.BufferUse use) implements ArrayRef {
    @Override
    public String name() {
      return use.param.name();
    }

    @Override
    public PrimType element() {
      return use.param.type();
    }
  }

  /** A shared or private array: its length is a constant. */
  record Local(String name, PrimType element, int length) implements ArrayRef {}
}
