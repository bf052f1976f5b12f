package dev.kiln.processor.spirv;

import dev.kiln.abi.LaunchAbi;
import static org.lwjgl.util.spvc.Spv.*;

/**
 * The fault buffer of the launch ABI: the first fault of a launch, written once. It is bound after
 * the kernel's buffers; word 0 is the kind ({@link #INDEX}, {@link #DIVISION_BY_ZERO}, {@link #OVERFLOW} or
 * {@link #ILLEGAL_ARGUMENT}, 0 for none),
 * word 1 the binding of the buffer (or {@link #LOCAL_ARRAY} with the length of a shared or private array),
 * word 2 the index, word 3 the source line. The runtime zeroes it
 * before a launch and turns a fault into the exception Java would have thrown.
 *
 * <p>An invocation keeps its first fault in four function variables, set without branches where a
 * check fails ({@link #recordIf}), and writes it to the buffer when it returns ({@link #flush}): a
 * kernel with a hundred checks then has a hundred selects rather than two hundred branches, which
 * drivers compile several times faster.
 */
final class Faults {
  static final int INDEX = LaunchAbi.FAULT_INDEX;
  static final int DIVISION_BY_ZERO = LaunchAbi.FAULT_DIVISION_BY_ZERO;
  static final int OVERFLOW = LaunchAbi.FAULT_OVERFLOW;
  static final int ILLEGAL_ARGUMENT = LaunchAbi.FAULT_ILLEGAL_ARGUMENT;
  static final int LOOP_LIMIT = LaunchAbi.FAULT_LOOP_LIMIT;
  static final int MATRIX_ALIGNMENT = LaunchAbi.FAULT_MATRIX_ALIGNMENT;
  /** Word 1 of an index fault on a shared or private array: this bit, or'ed with its length. */
  static final int LOCAL_ARRAY = LaunchAbi.FAULT_LOCAL_ARRAY;

  private final FunctionBuilder fn;
  private final int buffer;
  /** The invocation's first fault so far: kind (0 for none), tag, index and line, as uints. */
  private final int[] first = new int[LaunchAbi.FAULT_WORDS];
  private final boolean checks;

  /** The fault buffer at {@code binding}; {@code checks}: whether the kernel has checks that can fail. */
  Faults(FunctionBuilder fn, int binding, boolean checks) {
    this.fn = fn;
    SpirvModule m = fn.module();
    int struct = m.storageBlock(m.typeUint(), LaunchAbi.FAULT_WORDS);
    buffer = m.id();
    m.globals.op(SpvOpVariable, m.typePointer(SpvStorageClassStorageBuffer, struct), buffer,
        SpvStorageClassStorageBuffer);
    m.name(buffer, "faults");
    m.decorate(buffer, SpvDecorationDescriptorSet, 0);
    m.decorate(buffer, SpvDecorationBinding, binding);
    this.checks = checks;
    if (checks) {
      for (int word = 0; word < first.length; word++) {
        first[word] = fn.temporary(m.typeUint(), m.constantUint(0));
      }
      fn.beforeReturn(this::flush);
    }
  }

  /**
   * Where {@code failed}, records a fault unless the invocation has one already; {@code index} is
   * an int id.
   */
  void recordIf(int failed, int kind, int tag, int index, int line) {
    if (!checks) {
      throw new IllegalStateException("a check that can fail in a kernel said to have none");
    }
    SpirvModule m = fn.module();
    int uint = m.typeUint();
    int kindSoFar = fn.load(uint, first[0]);
    int isFirst = fn.op(SpvOpLogicalAnd, m.typeBool(), failed, fn.op(SpvOpIEqual, m.typeBool(), kindSoFar,
        m.constantUint(0)));
    int[] words = {m.constantUint(kind), m.constantUint(tag), fn.op(SpvOpBitcast, uint, index), m.constantUint(line)};
    for (int word = 0; word < first.length; word++) {
      int soFar = word == 0 ? kindSoFar : fn.load(uint, first[word]);
      fn.store(first[word], fn.op(SpvOpSelect, uint, isFirst, words[word], soFar));
    }
  }

  /** Writes the invocation's first fault, if it has one, to the buffer unless the launch has one already. */
  private void flush() {
    SpirvModule m = fn.module();
    int uint = m.typeUint();
    int kind = fn.load(uint, first[0]);
    fn.when(fn.op(SpvOpINotEqual, m.typeBool(), kind, m.constantUint(0)), () -> {
      int previous = fn.op(SpvOpAtomicCompareExchange, uint, word(0), m.constantUint(SpvScopeDevice),
          m.constantUint(0), m.constantUint(0), kind, m.constantUint(0));
      fn.when(fn.op(SpvOpIEqual, m.typeBool(), previous, m.constantUint(0)), () -> {
        for (int word = 1; word < first.length; word++) {
          fn.store(word(word), fn.load(uint, first[word]));
        }
      });
    });
  }

  private int word(int index) {
    SpirvModule m = fn.module();
    return fn.op(SpvOpAccessChain, m.typePointer(SpvStorageClassStorageBuffer, m.typeUint()), buffer,
        m.constantInt(0), m.constantInt(index));
  }
}
