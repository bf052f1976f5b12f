package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.LaunchAbi;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fault buffer of the launch ABI, which keeps the fault of the launch's lowest faulting
 * invocation, the one Java's loop over the invocations would throw ({@link LaunchAbi#FAULT_SLOTS}).
 * It is bound after the kernel's buffers; a fault's kind is {@link #INDEX}, {@link #DIVISION_BY_ZERO},
 * {@link #OVERFLOW} or {@link #ILLEGAL_ARGUMENT} (and the others of the ABI), its array word the
 * binding of the buffer (or {@link #LOCAL_ARRAY} with the length of a shared or private array). The
 * runtime zeroes the header before a launch and turns the lowest fault into the exception Java
 * would have thrown.
 *
 * <p>An invocation keeps its first fault in two function variables, set without branches where a
 * check fails ({@link #recordIf}): the check's site number (0 for none) and the index. When it
 * returns ({@link #flush}) it lowers the launch's lowest faulting place with an atomic, and where it
 * did, writes its fault to the next slot, looking the site's kind, tag and line up in a constant
 * table ({@link #declareSites}): atomics on the fault path only. A kernel with a hundred checks then
 * has two hundred selects rather than two hundred branches, which drivers compile several times
 * faster; keeping the kind, tag and line in variables too cost two more selects per check, which
 * showed in bandwidth-bound kernels with several checks per element (docs/PERFORMANCE.md).
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

  /** Words per site in the table: kind, tag, line. */
  private static final int SITE_WORDS = 3;

  /** What a check's fault says besides the index; checks that say the same share a site. */
  private record Site(int kind, int tag, int line) {
    int[] words() {
      return new int[] {kind, tag, line};
    }
  }

  private final FunctionBuilder fn;
  private final int buffer;
  /** The site number of the invocation's first fault so far (0 for none), a uint variable; 0 without checks. */
  private final int site;
  /** The index of the invocation's first fault so far, a uint variable; 0 without checks. */
  private final int index;
  /** The private array of the sites' words, from site 0 (none) on, declared by {@link #declareSites}; 0 without checks. */
  private final int table;
  /** Each site's number, from 1 on. */
  private final Map<Site, Integer> sites = new LinkedHashMap<>();
  private final boolean checks;
  /** Writes the invocation's place in Java's order of the launch's invocations, a uint. */
  private final java.util.function.IntSupplier place;

  /**
   * The fault buffer at {@code binding}; {@code checks}: whether the kernel has checks that can fail;
   * {@code place} writes the invocation's place in Java's order.
   */
  Faults(FunctionBuilder fn, int binding, boolean checks, java.util.function.IntSupplier place) {
    this.fn = fn;
    this.place = place;
    SpirvModule m = fn.module();
    int struct = m.storageBlock(m.typeUint(), 4);
    buffer = m.id();
    m.globals.op(SpvOpVariable, m.typePointer(SpvStorageClassStorageBuffer, struct), buffer,
        SpvStorageClassStorageBuffer);
    m.name(buffer, "faults");
    m.decorate(buffer, SpvDecorationDescriptorSet, 0);
    m.decorate(buffer, SpvDecorationBinding, binding);
    this.checks = checks;
    site = checks ? fn.temporary(m.typeUint(), m.constantUint(0)) : 0;
    index = checks ? fn.temporary(m.typeUint(), m.constantUint(0)) : 0;
    table = checks ? m.id() : 0;
    if (checks) {
      m.name(table, "faultSites");
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
    int number = sites.computeIfAbsent(new Site(kind, tag, line), site -> sites.size() + 1);
    int siteSoFar = fn.load(uint, site);
    int isFirst = fn.op(SpvOpLogicalAnd, m.typeBool(), failed, fn.op(SpvOpIEqual, m.typeBool(), siteSoFar,
        m.constantUint(0)));
    fn.store(site, fn.op(SpvOpSelect, uint, isFirst, m.constantUint(number), siteSoFar));
    fn.store(this.index, fn.op(SpvOpSelect, uint, isFirst, fn.op(SpvOpBitcast, uint, index), fn.load(uint, this.index)));
  }

  /**
   * Declares the table {@link #flush} reads: each site's kind, tag and line, after the kernel's
   * body has recorded every site. Call it once the function is finished.
   */
  void declareSites() {
    if (!checks) {
      return;
    }
    SpirvModule m = fn.module();
    int uint = m.typeUint();
    int[] words = new int[SITE_WORDS * (sites.size() + 1)];
    Arrays.fill(words, m.constantUint(0));
    sites.forEach((site, number) -> {
      int[] siteWords = site.words();
      for (int word = 0; word < SITE_WORDS; word++) {
        words[SITE_WORDS * number + word] = m.constantUint(siteWords[word]);
      }
    });
    int type = m.type(SpvOpTypeArray, uint, m.constantUint(words.length));
    int contents = m.id();
    int[] operands = new int[words.length + 2];
    operands[0] = type;
    operands[1] = contents;
    System.arraycopy(words, 0, operands, 2, words.length);
    m.globals.op(SpvOpConstantComposite, operands);
    m.globals.op(SpvOpVariable, m.typePointer(SpvStorageClassPrivate, type), table, SpvStorageClassPrivate, contents);
  }

  /**
   * Where the invocation has a fault, lowers the launch's lowest faulting place to its own (an
   * atomic max of the complement, the header starting at 0), and where it did, writes its fault to
   * the next slot.
   */
  private void flush() {
    SpirvModule m = fn.module();
    int uint = m.typeUint();
    int number = fn.load(uint, site);
    fn.when(fn.op(SpvOpINotEqual, m.typeBool(), number, m.constantUint(0)), () -> {
      // the complement of the place is at least 1, so that a fault always counts
      int placed = place.getAsInt();
      int own = fn.op(SpvOpSelect, uint, fn.op(SpvOpULessThan, m.typeBool(), placed, m.constantUint(0xFFFFFFFE)),
          placed, m.constantUint(0xFFFFFFFE));
      int complement = fn.op(SpvOpNot, uint, own);
      int before = fn.op(SpvOpAtomicUMax, uint, word(1), m.constantUint(SpvScopeDevice), m.constantUint(0),
          complement);
      fn.when(fn.op(SpvOpUGreaterThan, m.typeBool(), complement, before), () -> {
        int taken = fn.op(SpvOpAtomicIAdd, uint, word(0), m.constantUint(SpvScopeDevice), m.constantUint(0),
            m.constantUint(1));
        int slot = fn.op(SpvOpUMod, uint, taken, m.constantUint(LaunchAbi.FAULT_SLOTS));
        int base = fn.op(SpvOpIAdd, uint, m.constantUint(LaunchAbi.FAULT_HEADER_WORDS),
            fn.op(SpvOpIMul, uint, slot, m.constantUint(LaunchAbi.FAULT_SLOT_WORDS)));
        int first = fn.op(SpvOpIMul, uint, number, m.constantUint(SITE_WORDS));
        fn.store(word(base, 0), own);
        fn.store(word(base, 1), siteWord(first, 0));
        fn.store(word(base, 2), siteWord(first, 1));
        fn.store(word(base, 3), fn.load(uint, index));
        fn.store(word(base, 4), siteWord(first, 2));
      });
    });
  }

  /** Word {@code word} (0 kind, 1 tag, 2 line) of the site whose words start at {@code first} in the table. */
  private int siteWord(int first, int word) {
    SpirvModule m = fn.module();
    int position = word == 0 ? first : fn.op(SpvOpIAdd, m.typeUint(), first, m.constantUint(word));
    return fn.load(m.typeUint(), fn.op(SpvOpAccessChain, m.typePointer(SpvStorageClassPrivate, m.typeUint()), table,
        position));
  }

  private int word(int index) {
    SpirvModule m = fn.module();
    return fn.op(SpvOpAccessChain, m.typePointer(SpvStorageClassStorageBuffer, m.typeUint()), buffer,
        m.constantInt(0), m.constantInt(index));
  }

  /** Word {@code offset} of the slot whose words start at {@code base}, a uint id. */
  private int word(int base, int offset) {
    SpirvModule m = fn.module();
    int at = offset == 0 ? base : fn.op(SpvOpIAdd, m.typeUint(), base, m.constantUint(offset));
    return fn.op(SpvOpAccessChain, m.typePointer(SpvStorageClassStorageBuffer, m.typeUint()), buffer,
        m.constantInt(0), at);
  }
}
