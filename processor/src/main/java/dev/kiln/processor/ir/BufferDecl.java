package dev.kiln.processor.ir;

import dev.kiln.annotations.Access;

/** A storage buffer: an array parameter of the kernel, bound at {@code binding} of set 0. */
public record BufferDecl(String name, PrimType element, Access access, int binding)
    implements ArrayDecl {
  public BufferDecl withAccess(Access newAccess) {
    return new BufferDecl(name, element, newAccess, binding);
  }
}
