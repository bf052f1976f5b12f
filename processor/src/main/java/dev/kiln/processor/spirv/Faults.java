package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fault buffer of the launch ABI, which keeps the fault Java would throw first: that of the
 * lowest faulting invocation of the lowest fault region, a batch's launch or a fused group's arm
 * ({@link LaunchAbi#FAULT_SLOTS}). It is bound after the kernel's buffers; a fault's kind is {@link
 * #INDEX}, {@link #DIVISION_BY_ZERO}, {@link #OVERFLOW} or {@link #ILLEGAL_ARGUMENT} (and the
 * others of the ABI), its array word the binding of the buffer (or {@link #LOCAL_ARRAY} with the
 * length of a shared or private array). The runtime zeroes the header before a launch and turns the
 * lowest fault into the exception Java would have thrown.
 *
 * <p>An invocation keeps its first fault in two function variables, set without branches where a
 * check fails ({@link #recordIf}): the check's site number (0 for none) and the index. When it
 * returns ({@link #flush}) it lowers the lowest faulting region and its region's lowest faulting
 * place with atomics, and where it did, writes its fault to the next slot, looking the site's kind,
 * tag, line and arm up in a constant table ({@link #declareSites}): atomics on the fault path only.
 * A kernel with a hundred checks then has two hundred selects rather than two hundred branches,
 * which drivers compile several times faster; keeping the kind, tag and line in variables too cost
 * two more selects per check, which showed in bandwidth-bound kernels with several checks per
 * element (docs/PERFORMANCE.md).
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

  /** Words per site in the table: kind, tag, line, arm. */
  private static final int SITE_WORDS = 4;

  /**
   * What a check's fault says besides the index, and the fused group's arm it is in (0 for a
   * kernel); checks that say the same share a site.
   */
  private record FaultSite(int kind, int tag, int line, int arm) {
    int[] words() {
      return new int[] {kind, tag, line, arm};
    }
  }

  private final FunctionBuilder fn;
  private final int buffer;

  /**
   * The site number of the invocation's first fault so far (0 for none), a uint variable; 0 without
   * checks.
   */
  private final int site;

  /** The index of the invocation's first fault so far, a uint variable; 0 without checks. */
  private final int index;

  /**
   * The private array of the sites' words, from site 0 (none) on, declared by {@link
   * #declareSites}; 0 without checks.
   */
  private final int table;

  /** Each site's number, from 1 on. */
  private final Map<FaultSite, Integer> sites = new LinkedHashMap<>();

  private final boolean checks;

  /**
   * The invocation's place in Java's order of the launch's invocations, and the launch's fault
   * region.
   */
  private final LaunchValues launch;

  /** The fused group's arm whose code is being written; 0 in kernels. */
  private int arm;

  /**
   * The fault buffer at {@code binding}; {@code checks}: whether the kernel has checks that can
   * fail; {@code launch} gives the invocation's place and the launch's fault region.
   */
  Faults(FunctionBuilder fn, int binding, boolean checks, LaunchValues launch) {
    this.fn = fn;
    this.launch = launch;
    SpirvModule m = fn.module();
    int struct = m.storageBlock(m.typeUint(), 4);
    buffer = m.id();
    m.globals.op(
        SpvOpVariable,
        m.typePointer(SpvStorageClassStorageBuffer, struct),
        buffer,
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
   * Notes that the code written next is at {@code site} (none where null): the checks recorded from
   * here on are in its fused group arm, until another site says otherwise. Every node with a check
   * has a site, and is written after its operands, whose sites are in the same arm.
   */
  void at(Site site) {
    if (site != null) {
      arm = site.arm();
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
    int number =
        sites.computeIfAbsent(new FaultSite(kind, tag, line, arm), site -> sites.size() + 1);
    int siteSoFar = fn.load(uint, site);
    int isFirst =
        fn.op(
            SpvOpLogicalAnd,
            m.typeBool(),
            failed,
            fn.op(SpvOpIEqual, m.typeBool(), siteSoFar, m.constantUint(0)));
    fn.store(site, fn.op(SpvOpSelect, uint, isFirst, m.constantUint(number), siteSoFar));
    fn.store(
        this.index,
        fn.op(
            SpvOpSelect,
            uint,
            isFirst,
            fn.op(SpvOpBitcast, uint, index),
            fn.load(uint, this.index)));
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
    sites.forEach(
        (site, number) -> {
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
    m.globals.op(
        SpvOpVariable,
        m.typePointer(SpvStorageClassPrivate, type),
        table,
        SpvStorageClassPrivate,
        contents);
  }

  /**
   * Where the invocation has a fault: unless a lower region has faulted, lowers the lowest faulting
   * region to its own (an atomic max of the complement, the header starting at 0) and its region's
   * lowest faulting place to its own (likewise), and where it lowered the place, writes its fault
   * to the next slot. A region's word is only lowered while no lower region has faulted, so the
   * slots taken after the lowest region's lowest fault are few (invocations between their atomics).
   */
  private void flush() {
    SpirvModule m = fn.module();
    int uint = m.typeUint();
    int bool = m.typeBool();
    int number = fn.load(uint, site);
    fn.when(
        fn.op(SpvOpINotEqual, bool, number, m.constantUint(0)),
        () -> {
          int first = fn.op(SpvOpIMul, uint, number, m.constantUint(SITE_WORDS));
          int region = fn.op(SpvOpIAdd, uint, launch.faultRegion(), siteWord(first, 3));
          int lowestRegion =
              fn.op(
                  SpvOpAtomicUMax,
                  uint,
                  word(m.constantUint(1)),
                  m.constantUint(SpvScopeDevice),
                  m.constantUint(0),
                  fn.op(SpvOpNot, uint, region));
          fn.when(
              fn.op(SpvOpUGreaterThanEqual, bool, fn.op(SpvOpNot, uint, region), lowestRegion),
              () -> {
                // the complement of the place is at least 1, so that a fault always counts
                int placed = launch.invocationPlace();
                int own =
                    fn.op(
                        SpvOpSelect,
                        uint,
                        fn.op(SpvOpULessThan, bool, placed, m.constantUint(0xFFFFFFFE)),
                        placed,
                        m.constantUint(0xFFFFFFFE));
                int complement = fn.op(SpvOpNot, uint, own);
                int regionWord =
                    fn.op(SpvOpIAdd, uint, m.constantUint(LaunchAbi.FAULT_REGIONS_AT), region);
                int before =
                    fn.op(
                        SpvOpAtomicUMax,
                        uint,
                        word(regionWord),
                        m.constantUint(SpvScopeDevice),
                        m.constantUint(0),
                        complement);
                fn.when(
                    fn.op(SpvOpUGreaterThan, bool, complement, before),
                    () -> {
                      int taken =
                          fn.op(
                              SpvOpAtomicIAdd,
                              uint,
                              word(m.constantUint(0)),
                              m.constantUint(SpvScopeDevice),
                              m.constantUint(0),
                              m.constantUint(1));
                      int slot =
                          fn.op(SpvOpUMod, uint, taken, m.constantUint(LaunchAbi.FAULT_SLOTS));
                      int base =
                          fn.op(
                              SpvOpIAdd,
                              uint,
                              m.constantUint(LaunchAbi.FAULT_HEADER_WORDS),
                              fn.op(
                                  SpvOpIMul,
                                  uint,
                                  slot,
                                  m.constantUint(LaunchAbi.FAULT_SLOT_WORDS)));
                      fn.store(word(base, 0), region);
                      fn.store(word(base, 1), own);
                      fn.store(word(base, 2), siteWord(first, 0));
                      fn.store(word(base, 3), siteWord(first, 1));
                      fn.store(word(base, 4), fn.load(uint, index));
                      fn.store(word(base, 5), siteWord(first, 2));
                    });
              });
        });
  }

  /**
   * Word {@code word} (0 kind, 1 tag, 2 line, 3 arm) of the site whose words start at {@code first}
   * in the table.
   */
  private int siteWord(int first, int word) {
    SpirvModule m = fn.module();
    int position = word == 0 ? first : fn.op(SpvOpIAdd, m.typeUint(), first, m.constantUint(word));
    return fn.load(
        m.typeUint(),
        fn.op(
            SpvOpAccessChain,
            m.typePointer(SpvStorageClassPrivate, m.typeUint()),
            table,
            position));
  }

  /** A pointer to the buffer's word {@code at}, a uint id. */
  private int word(int at) {
    SpirvModule m = fn.module();
    return fn.op(
        SpvOpAccessChain,
        m.typePointer(SpvStorageClassStorageBuffer, m.typeUint()),
        buffer,
        m.constantInt(0),
        at);
  }

  /** A pointer to word {@code offset} of the slot whose words start at {@code base}, a uint id. */
  private int word(int base, int offset) {
    SpirvModule m = fn.module();
    return word(offset == 0 ? base : fn.op(SpvOpIAdd, m.typeUint(), base, m.constantUint(offset)));
  }

  /**
   * Reports an integer division by zero at {@code line} where {@code isZero} (the caller goes on
   * with a harmless divisor).
   */
  void divisionByZero(int isZero, int line) {
    recordIf(isZero, Faults.DIVISION_BY_ZERO, 0, fn.module().constantInt(0), line);
  }

  /** Reports a {@code Math.clamp} whose bounds are out of order or NaN, where {@code invalid}. */
  void illegalArgument(int invalid) {
    recordIf(invalid, Faults.ILLEGAL_ARGUMENT, 0, fn.module().constantInt(0), 0);
  }

  /**
   * Reports an {@code *Exact} method's overflow where {@code overflows}; {@code type} is INT or
   * LONG.
   */
  void overflow(int overflows, PrimType type) {
    recordIf(
        overflows, Faults.OVERFLOW, 0, fn.module().constantInt(type == PrimType.LONG ? 2 : 1), 0);
  }
}
