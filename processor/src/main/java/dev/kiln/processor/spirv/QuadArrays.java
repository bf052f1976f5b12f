package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.PrimType;

/**
 * Workgroup and private arrays held as quads ({@link Copies#quadArrays}): arrays of uvec4, each
 * quad holding the bits of 4 elements of 32 bits or 8 of 16 bits, in order. A copy moves a quad at
 * once, and a matrix tile loads from them as from GLSL's {@code shared uvec4} arrays; single
 * elements are words, or halves of words, of their quads.
 */
final class QuadArrays {
  /** The bytes of a quad. */
  static final int QUAD_BYTES = 16;

  /**
   * The memory operands of an access through a pointer of a storage class: a load's, or a store's
   * ({@code true}).
   */
  interface Operands {
    int[] of(int storageClass, boolean available);
  }

  private final FunctionBuilder fn;
  private final SpirvModule module;
  private final Operands operands;

  QuadArrays(FunctionBuilder fn, Operands operands) {
    this.fn = fn;
    this.module = fn.module();
    this.operands = operands;
  }

  /** How many {@code element}s a quad holds. */
  static int perQuad(PrimType element) {
    return QUAD_BYTES / element.bytes();
  }

  /** The uvec4 type: a quad of words. */
  int quad() {
    return module.type(SpvOpTypeVector, module.typeUint(), 4);
  }

  /** An array of the quads that hold {@code length} elements of 2 or 4 bytes. */
  int arrayType(int length, PrimType element) {
    int perQuad = perQuad(element);
    return module.type(
        SpvOpTypeArray, quad(), module.constantUint((length + perQuad - 1) / perQuad));
  }

  /** The quad that holds element {@code index} (an int id): {@code index / perQuad}, a shift. */
  int quadOf(ArrayVariable array, int index) {
    return fn.op(
        SpvOpShiftRightArithmetic, module.typeInt(), index, module.constantInt(shift(array)));
  }

  /** A pointer to quad {@code quadIndex} of {@code array}. */
  int pointer(ArrayVariable array, int quadIndex) {
    return fn.accessChain(array.storageClass(), quad(), array.variable(), quadIndex);
  }

  /**
   * Element {@code index} of {@code array}, as the kernel holds it: a 32-bit element is word {@code
   * index % 4} of quad {@code index / 4}; a 16-bit one the half of word {@code index / 2 % 4} of
   * quad {@code index / 8}, sign-extended for a short, zero-extended for a char.
   */
  int element(ArrayVariable array, int index) {
    int integer = module.typeInt();
    int loaded =
        fn.load(module.typeUint(), word(array, index), operands.of(array.storageClass(), false));
    if (array.element().bytes() == 4) {
      return fn.op(SpvOpBitcast, fn.typeOf(array.element()), loaded);
    }
    int word = fn.op(SpvOpBitcast, integer, loaded);
    int offset =
        fn.op(
            SpvOpShiftLeftLogical,
            integer,
            fn.op(SpvOpBitwiseAnd, integer, index, module.constantInt(1)),
            module.constantInt(4));
    return fn.op(
        array.element() == PrimType.CHAR ? SpvOpBitFieldUExtract : SpvOpBitFieldSExtract,
        integer,
        word,
        offset,
        module.constantInt(16));
  }

  /**
   * Sets element {@code index} of {@code array} to {@code value}: a 32-bit element is its word; a
   * 16-bit one the low 16 bits of int {@code value}, for workgroup memory with two atomics on its
   * word, since the word's other half may be another invocation's element, else by reading and
   * writing the word.
   */
  void setElement(ArrayVariable array, int index, int value) {
    int uint = module.typeUint();
    int word = word(array, index);
    if (array.element().bytes() == 4) {
      fn.store(word, fn.op(SpvOpBitcast, uint, value), operands.of(array.storageClass(), true));
      return;
    }
    int offset =
        fn.op(
            SpvOpShiftLeftLogical,
            uint,
            fn.op(
                SpvOpBitcast,
                uint,
                fn.op(SpvOpBitwiseAnd, module.typeInt(), index, module.constantInt(1))),
            module.constantUint(4));
    int bits = fn.op(SpvOpBitcast, uint, value);
    if (array.storageClass() == SpvStorageClassWorkgroup) {
      bits =
          fn.op(
              SpvOpShiftLeftLogical,
              uint,
              fn.op(SpvOpBitwiseAnd, uint, bits, module.constantUint(0xffff)),
              offset);
      int mask =
          fn.op(
              SpvOpNot,
              uint,
              fn.op(SpvOpShiftLeftLogical, uint, module.constantUint(0xffff), offset));
      int scope = module.constantUint(SpvScopeWorkgroup);
      int relaxed = module.constantUint(SpvMemorySemanticsMaskNone);
      fn.op(SpvOpAtomicAnd, uint, word, scope, relaxed, mask);
      fn.op(SpvOpAtomicOr, uint, word, scope, relaxed, bits);
    } else {
      int old = fn.load(uint, word);
      fn.store(word, fn.op(SpvOpBitFieldInsert, uint, old, bits, offset, module.constantUint(16)));
    }
  }

  /** A pointer to the word of {@code array} that holds element {@code index}. */
  private int word(ArrayVariable array, int index) {
    int integer = module.typeInt();
    int quadIndex = quadOf(array, index);
    int word =
        array.element().bytes() == 4
            ? index
            : fn.op(SpvOpShiftRightArithmetic, integer, index, module.constantInt(1));
    int wordIndex = fn.op(SpvOpBitwiseAnd, integer, word, module.constantInt(3));
    return fn.accessChain(
        array.storageClass(), module.typeUint(), array.variable(), quadIndex, wordIndex);
  }

  /**
   * log2 of the elements a quad of {@code array} holds: 3 for 16-bit elements, 2 for 32-bit ones.
   */
  private static int shift(ArrayVariable array) {
    return Integer.numberOfTrailingZeros(perQuad(array.element()));
  }
}
