package dev.kiln.processor.spirv;

import dev.kiln.abi.LaunchAbi;
import static org.lwjgl.util.spvc.Spv.*;

/**
 * The fault buffer of the launch ABI: the first fault of a launch, written once. It is bound after
 * the kernel's buffers; word 0 is the kind ({@link #INDEX} or {@link #DIVISION_BY_ZERO}, 0 for none),
 * word 1 the binding of the buffer (or {@link #LOCAL_ARRAY} with the length of a shared or private array),
 * word 2 the index, word 3 the source line. The runtime zeroes it
 * before a launch and turns a fault into the exception Java would have thrown.
 */
final class Faults {
  static final int INDEX = LaunchAbi.FAULT_INDEX;
  static final int DIVISION_BY_ZERO = LaunchAbi.FAULT_DIVISION_BY_ZERO;
  /** Word 1 of an index fault on a shared or private array: this bit, or'ed with its length. */
  static final int LOCAL_ARRAY = LaunchAbi.FAULT_LOCAL_ARRAY;

  private final FunctionBuilder fn;
  private final int variable;

  Faults(FunctionBuilder fn, int binding) {
    this.fn = fn;
    SpirvModule m = fn.module();
    int struct = m.storageBlock(m.typeUint(), LaunchAbi.FAULT_WORDS);
    variable = m.id();
    m.globals.op(SpvOpVariable, m.typePointer(SpvStorageClassStorageBuffer, struct), variable,
        SpvStorageClassStorageBuffer);
    m.name(variable, "faults");
    m.decorate(variable, SpvDecorationDescriptorSet, 0);
    m.decorate(variable, SpvDecorationBinding, binding);
  }

  /** Records a fault unless the launch has one already; {@code index} is an int id. */
  void record(int kind, int binding, int index, int line) {
    SpirvModule m = fn.module();
    int uint = m.typeUint();
    int previous = fn.op(SpvOpAtomicCompareExchange, uint, word(0), m.constantUint(SpvScopeDevice),
        m.constantUint(0), m.constantUint(0), m.constantUint(kind), m.constantUint(0));
    fn.when(fn.op(SpvOpIEqual, m.typeBool(), previous, m.constantUint(0)), () -> {
      fn.store(word(1), m.constantUint(binding));
      fn.store(word(2), fn.op(SpvOpBitcast, uint, index));
      fn.store(word(3), m.constantUint(line));
    });
  }

  private int word(int index) {
    SpirvModule m = fn.module();
    return fn.op(SpvOpAccessChain, m.typePointer(SpvStorageClassStorageBuffer, m.typeUint()), variable,
        m.constantInt(0), m.constantInt(index));
  }
}
