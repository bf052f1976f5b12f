package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.analysis.IndexBounds.Bound;
import dev.kiln.processor.analysis.Multiples;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.FixedArray;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code System.arraycopy} with a constant length ({@link Stmt.Copy}), in 16-byte quads (uvec4)
 * where it can: the length a multiple of a quad's elements, and every index of a side that moves
 * whole quads a multiple of them, known at compile time ({@link Multiples}) or tested at run time.
 * A buffer side moves quads through a second view of the buffer; a private array of 16-bit
 * elements, or a workgroup one that the program only copies into, copies from and reads ({@link
 * #quadArrays}), is held as quads itself; any other side packs its elements into quads or unpacks
 * them. Elsewhere the copy moves element by element. Either way it reads every element before it
 * writes one, so that a copy within one array is Java's, and with bounds checks it copies nothing
 * where a range leaves its array, recording Java's fault.
 */
final class Copies {

  private final FunctionBuilder fn;
  private final SpirvModule module;
  private final MemoryAccess memory;

  /** What proves a side's index a multiple of a quad's elements, with no test at run time. */
  private final Multiples multiples;

  Copies(FunctionBuilder fn, MemoryAccess memory, Multiples multiples) {
    this.multiples = multiples;
    this.fn = fn;
    this.module = fn.module();
    this.memory = memory;
  }

  /**
   * The workgroup and private arrays that {@code program} copies into or from, held as quads so
   * that a copy moves 16 bytes at once: private ones of 16-bit elements ({@code short}, {@code
   * char}), an element's store a read and write of its word; workgroup ones of 16-bit elements
   * ({@code sharedPackedShorts}) that it otherwise only reads, which matrix tiles then load from as
   * from GLSL's {@code shared uvec4} arrays (an element's store would be two atomics on its word,
   * whose other half may be another invocation's); and those of 32-bit elements ({@code int},
   * {@code float}) that no atomic updates and no tile loads or stores (an element is a word of its
   * quad).
   */
  static Set<String> quadArrays(Program program) {
    Set<String> copied = new HashSet<>();
    Set<String> stored = new HashSet<>();
    Set<String> updated = new HashSet<>();
    Set<String> tiled = new HashSet<>();
    Walk.statements(
        program.body(),
        statement -> {
          switch (statement) {
            case Stmt.Copy copy -> {
              copied.add(copy.source().name());
              copied.add(copy.target().name());
            }
            case Stmt.Store store -> stored.add(store.array().name());
            case Stmt.Atomic atomic -> updated.add(atomic.array().name());
            case Stmt.Matrix matrix -> {
              switch (matrix.op()) {
                case MatrixOp.Load load -> tiled.add(load.array().name());
                case MatrixOp.Store store -> tiled.add(store.array().name());
                default -> {}
              }
            }
            default -> {}
          }
        });
    Set<String> quads = new HashSet<>();
    for (FixedArray array : fixedArrays(program)) {
      String name = array.name();
      boolean shorts =
          array.element().bytes() == 2
              && (array instanceof PrivateArray
                  || array instanceof SharedArray shared
                      && shared.packed()
                      && !stored.contains(name));
      boolean words =
          array.element().bytes() == 4 && !updated.contains(name) && !tiled.contains(name);
      if (copied.contains(name) && (shorts || words) && array.hasConstantLength()) {
        quads.add(name);
      }
    }
    return quads;
  }

  private static List<FixedArray> fixedArrays(Program program) {
    List<FixedArray> all = new ArrayList<>(program.shared());
    all.addAll(program.privates());
    return all;
  }

  /**
   * Writes {@code copy}, its indices the int ids {@code from} and {@code to}, each side's range
   * known in bounds as {@code sourceBound} and {@code targetBound} say.
   */
  void write(Stmt.Copy copy, int from, int to, Bound sourceBound, Bound targetBound) {
    if (!memory.boundsChecks() || sourceBound == Bound.PROVEN && targetBound == Bound.PROVEN) {
      move(copy, from, to);
      return;
    }
    Side source = side(copy, copy.source(), from, sourceBound);
    Side target = side(copy, copy.target(), to, targetBound);
    // System.arraycopy's order: either index below 0, the source's first; then either range past
    // its end
    recordFault(copy, source, false, false);
    recordFault(copy, target, true, false);
    recordFault(copy, source, false, true);
    recordFault(copy, target, true, true);
    fn.when(
        fn.op(SpvOpLogicalAnd, module.typeBool(), source.inside(), target.inside()),
        () -> move(copy, from, to));
  }

  /**
   * One side's range {@code [index, index + length)} of {@code array}: whether it starts below 0,
   * whether it ends past the array (both false where proven or where the launch settled it, so that
   * a settled pipeline records nothing), and whether it lies inside.
   */
  private record Side(ArrayDecl array, int index, int below, int past, int inside) {}

  /**
   * Records a side's fault where its range starts below 0 ({@code last} false) or ends past the
   * array.
   */
  private void recordFault(Stmt.Copy copy, Side side, boolean destination, boolean last) {
    if (side.below() == 0) {
      return; // proven
    }
    int offending =
        last
            ? fn.op(SpvOpIAdd, module.typeInt(), side.index(), module.constantInt(copy.length()))
            : side.index();
    memory
        .faults()
        .recordIf(
            last ? side.past() : side.below(),
            LaunchAbi.copyFault(destination, last, side.array().element().javaName()),
            memory.array(side.array().name()).faultTag(),
            offending,
            copy.site().line());
  }

  private Side side(Stmt.Copy copy, ArrayDecl array, int index, Bound bound) {
    if (bound == Bound.PROVEN) {
      return new Side(array, index, 0, 0, module.constantBool(true));
    }
    int bool = module.typeBool();
    int below = fn.op(SpvOpSLessThan, bool, index, module.constantInt(0));
    // index + length past the array's length, without the sum's wrap: index > array length - length
    int past =
        fn.op(
            SpvOpSGreaterThan,
            bool,
            index,
            fn.op(
                SpvOpISub,
                module.typeInt(),
                memory.lengthOf(array.name()),
                module.constantInt(copy.length())));
    if (bound == Bound.AT_LAUNCH) { // neither where the launch settled it: no fault to record
      int unsettled = fn.op(SpvOpLogicalNot, bool, memory.checksSettled());
      below = fn.op(SpvOpLogicalAnd, bool, unsettled, below);
      past = fn.op(SpvOpLogicalAnd, bool, unsettled, past);
    }
    int inside = fn.op(SpvOpLogicalNot, bool, fn.op(SpvOpLogicalOr, bool, below, past));
    return new Side(array, index, below, past, inside);
  }

  /**
   * The copy itself: in quads where every side that moves quads starts at one (known at compile
   * time, or tested at run time by {@link #quadsFit}), else element by element.
   */
  private void move(Stmt.Copy copy, int from, int to) {
    PrimType element = copy.source().element();
    int perQuad = element == PrimType.BOOLEAN ? 0 : QuadArrays.perQuad(element);
    boolean quadSides = moves(copy.source()) || moves(copy.target());
    if (perQuad == 0 || copy.length() % perQuad != 0 || !quadSides) {
      byElements(copy, from, to);
      return;
    }
    boolean sourceFits = !moves(copy.source()) || multiples.isMultiple(copy.sourceIndex(), perQuad);
    boolean targetFits = !moves(copy.target()) || multiples.isMultiple(copy.targetIndex(), perQuad);
    if (sourceFits && targetFits) {
      byQuads(copy, from, to, perQuad);
      return;
    }
    int fit =
        fn.op(
            SpvOpLogicalAnd,
            module.typeBool(),
            sourceFits ? module.constantBool(true) : quadsFit(from, perQuad),
            targetFits ? module.constantBool(true) : quadsFit(to, perQuad));
    fn.ifElse(fit, () -> byQuads(copy, from, to, perQuad), () -> byElements(copy, from, to));
  }

  /** Whether a side moves whole quads itself: a buffer, or an array held as quads. */
  private boolean moves(ArrayDecl array) {
    return array instanceof BufferDecl || memory.array(array.name()).quads();
  }

  /**
   * Whether a side that moves whole quads starts at one here: {@code index} a multiple of {@code
   * perQuad}.
   */
  private int quadsFit(int index, int perQuad) {
    int integer = module.typeInt();
    return fn.op(
        SpvOpIEqual,
        module.typeBool(),
        fn.op(SpvOpBitwiseAnd, integer, index, module.constantInt(perQuad - 1)),
        module.constantInt(0));
  }

  private void byQuads(Stmt.Copy copy, int from, int to, int perQuad) {
    int quads = copy.length() / perQuad;
    int[] moved = new int[quads];
    for (int q = 0; q < quads; q++) {
      moved[q] = readQuad(copy.source(), from, q, perQuad);
    }
    for (int q = 0; q < quads; q++) {
      writeQuad(copy.target(), to, q, perQuad, moved[q]);
    }
  }

  private void byElements(Stmt.Copy copy, int from, int to) {
    int[] moved = new int[copy.length()];
    for (int k = 0; k < moved.length; k++) {
      moved[k] = memory.read(copy.source().name(), plus(from, k));
    }
    for (int k = 0; k < moved.length; k++) {
      memory.write(copy.target().name(), plus(to, k), moved[k]);
    }
  }

  /** Quad {@code q} of the side's range from {@code index} (a multiple of {@code perQuad}) on. */
  private int readQuad(ArrayDecl array, int index, int q, int perQuad) {
    if (moves(array)) {
      int pointer = quadPointer(array, index, q, perQuad);
      return fn.load(memory.quad(), pointer, memory.memoryOperands(storageClass(array), false));
    }
    int[] elements = new int[perQuad];
    for (int k = 0; k < perQuad; k++) {
      elements[k] = memory.read(array.name(), plus(index, q * perQuad + k));
    }
    return pack(array.element(), elements);
  }

  private void writeQuad(ArrayDecl array, int index, int q, int perQuad, int quad) {
    if (moves(array)) {
      int pointer = quadPointer(array, index, q, perQuad);
      fn.store(pointer, quad, memory.memoryOperands(storageClass(array), true));
      return;
    }
    int[] elements = unpack(array.element(), quad, perQuad);
    for (int k = 0; k < perQuad; k++) {
      memory.write(array.name(), plus(index, q * perQuad + k), elements[k]);
    }
  }

  private int storageClass(ArrayDecl array) {
    return memory.array(array.name()).storageClass();
  }

  /** A pointer to quad {@code q} of a side that moves quads, from element {@code index} on. */
  private int quadPointer(ArrayDecl array, int index, int q, int perQuad) {
    int integer = module.typeInt();
    int first =
        fn.op(
            SpvOpShiftRightArithmetic,
            integer,
            index,
            module.constantInt(Integer.numberOfTrailingZeros(perQuad)));
    int quadIndex = plus(first, q);
    if (array instanceof BufferDecl buffer) {
      return fn.accessChain(
          SpvStorageClassStorageBuffer,
          memory.quad(),
          memory.quadView(buffer),
          module.constantInt(0),
          quadIndex);
    }
    return memory.quadPointer(array.name(), quadIndex);
  }

  /** The bits of {@code elements} (values as the kernel holds them), in order, as one quad. */
  private int pack(PrimType element, int[] elements) {
    int uint = module.typeUint();
    int[] words = new int[4];
    switch (element.bytes()) {
      case 8 -> {
        int pair = module.type(SpvOpTypeVector, uint, 2);
        for (int k = 0; k < 2; k++) {
          int bits = fn.op(SpvOpBitcast, pair, elements[k]);
          words[2 * k] = fn.op(SpvOpCompositeExtract, uint, bits, 0);
          words[2 * k + 1] = fn.op(SpvOpCompositeExtract, uint, bits, 1);
        }
      }
      case 4 -> {
        for (int k = 0; k < 4; k++) {
          words[k] = fn.op(SpvOpBitcast, uint, elements[k]);
        }
      }
      default -> { // 2 or 1 bytes, held widened as ints
        int bits = 8 * element.bytes();
        int perWord = 4 / element.bytes();
        for (int w = 0; w < 4; w++) {
          int word = module.constantUint(0);
          for (int k = 0; k < perWord; k++) {
            word =
                fn.op(
                    SpvOpBitFieldInsert,
                    uint,
                    word,
                    fn.op(SpvOpBitcast, uint, elements[w * perWord + k]),
                    module.constantUint(k * bits),
                    module.constantUint(bits));
          }
          words[w] = word;
        }
      }
    }
    return fn.op(SpvOpCompositeConstruct, memory.quad(), words);
  }

  /** The {@code perQuad} elements whose bits {@code quad} holds, as the kernel holds them. */
  private int[] unpack(PrimType element, int quad, int perQuad) {
    int uint = module.typeUint();
    int[] words = new int[4];
    for (int w = 0; w < 4; w++) {
      words[w] = fn.op(SpvOpCompositeExtract, uint, quad, w);
    }
    int[] elements = new int[perQuad];
    int type = fn.typeOf(element);
    switch (element.bytes()) {
      case 8 -> {
        int pair = module.type(SpvOpTypeVector, uint, 2);
        for (int k = 0; k < 2; k++) {
          elements[k] =
              fn.op(
                  SpvOpBitcast,
                  type,
                  fn.op(SpvOpCompositeConstruct, pair, words[2 * k], words[2 * k + 1]));
        }
      }
      case 4 -> {
        for (int k = 0; k < 4; k++) {
          elements[k] = fn.op(SpvOpBitcast, type, words[k]);
        }
      }
      default -> {
        int bits = 8 * element.bytes();
        int perWord = 4 / element.bytes();
        int integer = module.typeInt();
        int extract = element == PrimType.CHAR ? SpvOpBitFieldUExtract : SpvOpBitFieldSExtract;
        for (int k = 0; k < perQuad; k++) {
          int word = fn.op(SpvOpBitcast, integer, words[k / perWord]);
          elements[k] =
              fn.op(
                  extract,
                  integer,
                  word,
                  module.constantInt(k % perWord * bits),
                  module.constantInt(bits));
        }
      }
    }
    return elements;
  }

  private int plus(int index, int offset) {
    return offset == 0
        ? index
        : fn.op(SpvOpIAdd, module.typeInt(), index, module.constantInt(offset));
  }
}
