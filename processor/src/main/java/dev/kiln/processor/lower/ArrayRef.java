package dev.kiln.processor.lower;

import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.SharedArray;

/** What an array expression in a kernel names: a buffer parameter, a shared array or a private one. */
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

  record Private(PrivateArray array) implements ArrayRef {
    @Override
    public String name() {
      return array.name();
    }

    @Override
    public PrimType element() {
      return array.element();
    }
  }

  record Shared(SharedArray array) implements ArrayRef {
    @Override
    public String name() {
      return array.name();
    }

    @Override
    public PrimType element() {
      return array.element();
    }
  }
}
