package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.analysis.IndexBounds.Bound;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.PushConstantBlock;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The arrays a program indexes (storage buffers, workgroup and private arrays), and every access of
 * them: with bounds checks, an index out of bounds is dropped (a load reads 0) and recorded in the
 * fault buffer, as are integer divisions by zero.
 */
final class MemoryAccess {
  /** The memory operands of an access that needs none. */
  private static final int[] NO_OPERANDS = {};

  private final FunctionBuilder fn;
  private final SpirvModule module;
  private final boolean boundsChecks;
  private final Map<String, ArrayVariable> arrays = new HashMap<>();
  private Faults faults;

  /**
   * The specialization constant of checks a launch settles ({@link #checksSettled()}); 0 until
   * used.
   */
  private int checksSettled;

  /** Whether the module is written for the Vulkan memory model ({@link #useVulkanMemoryModel}). */
  private boolean vulkanMemoryModel;

  /** The workgroup and private arrays held as quads ({@link Copies#quadArrays}). */
  private final Set<String> quadArrays;

  /** How arrays held as quads are read and written. */
  private final QuadArrays quads;

  /** The lengths of workgroup arrays that parameters give. */
  final ParameterLengths parameterLengths;

  /** Each buffer's view as quads, declared on first use ({@link #quadView}). */
  private final Map<String, Integer> quadViews = new HashMap<>();

  MemoryAccess(FunctionBuilder fn, boolean boundsChecks, Set<String> quadArrays) {
    this.fn = fn;
    this.module = fn.module();
    this.quads = new QuadArrays(fn, this::memoryOperands);
    this.parameterLengths = new ParameterLengths(module);
    this.boundsChecks = boundsChecks;
    this.quadArrays = Set.copyOf(quadArrays);
  }

  /** The array named {@code name}. */
  ArrayVariable array(String name) {
    return arrays.get(name);
  }

  /** Whether bounds checks are on. */
  boolean boundsChecks() {
    return boundsChecks;
  }

  /** The fault record. */
  Faults faults() {
    return faults;
  }

  /**
   * Writes the module for the Vulkan memory model, which cooperative matrices demand (SPIR-V's
   * validator requires the VulkanMemoryModel capability beside CooperativeMatrixKHR): every access
   * to workgroup memory is then non-private, a store made available and a load made visible at
   * workgroup scope, so that barriers order them as the GLSL450 model did (what glslang writes for
   * {@code shared} variables). Buffers stay private accesses, as glslang leaves non-coherent ones.
   */
  void useVulkanMemoryModel() {
    vulkanMemoryModel = true;
    module.require(
        DeviceFeature.VULKAN_MEMORY_MODEL); // device scope too: the fault record's atomic
  }

  /**
   * The memory operands an access through a pointer of {@code storageClass} takes: for workgroup
   * memory under the Vulkan memory model, non-private and made {@code available} (a store) or
   * visible (a load) at workgroup scope; otherwise none.
   */
  int[] memoryOperands(int storageClass, boolean available) {
    if (!vulkanMemoryModel || storageClass != SpvStorageClassWorkgroup) {
      return NO_OPERANDS;
    }
    int mask =
        SpvMemoryAccessNonPrivatePointerMask
            | (available
                ? SpvMemoryAccessMakePointerAvailableMask
                : SpvMemoryAccessMakePointerVisibleMask);
    return new int[] {mask, module.constantUint(SpvScopeWorkgroup)};
  }

  /**
   * The memory operands of a cooperative-matrix load ({@code available} false) or store of {@code
   * array}.
   */
  int[] tileOperands(String array, boolean available) {
    return memoryOperands(arrays.get(array).storageClass(), available);
  }

  void declareBuffer(BufferDecl buffer) {
    PrimType element = buffer.element();
    int bytes = element == PrimType.BOOLEAN ? 1 : element.bytes(); // Java's boolean[] holds bytes
    int storage =
        element.isNarrow() || element == PrimType.BOOLEAN
            ? module.typeStorageInt(8 * bytes)
            : fn.typeOf(element);
    int struct = module.storageBlock(storage, bytes);
    int variable = fn.globalVariable(SpvStorageClassStorageBuffer, struct);
    module.name(variable, buffer.name());
    BufferViews.decorate(module, variable, buffer);
    arrays.put(
        buffer.name(),
        new ArrayVariable(
            variable,
            SpvStorageClassStorageBuffer,
            buffer.element(),
            -1,
            0,
            buffer.binding(),
            storage,
            element.isNarrow() || element == PrimType.BOOLEAN,
            false));
  }

  /**
   * A second view of {@code buffer} at its binding: a runtime array of uvec4, 16 bytes of the
   * buffer's elements each, declared on first use.
   */
  int quadView(BufferDecl buffer) {
    return quadViews.computeIfAbsent(
        buffer.name(),
        name -> BufferViews.view(fn, buffer, quad(), QuadArrays.QUAD_BYTES, name + "Quads"));
  }

  /** The uvec4 type: a quad of words. */
  int quad() {
    return quads.quad();
  }

  /** A pointer to quad {@code quadIndex} of {@code array}, which is held as quads. */
  int quadPointer(String array, int quadIndex) {
    return quads.pointer(arrays.get(array), quadIndex);
  }

  /**
   * Declares the fault buffer, at {@code binding} (after the program's buffers), for {@code
   * program}.
   */
  void declareFaults(int binding, Program program, LaunchValues launch) {
    faults = new Faults(fn, binding, hasChecks(program), launch);
  }

  /** Declares the table of the fault sites the body recorded: after the function is finished. */
  void declareFaultSites() {
    faults.declareSites();
  }

  /** Starts counting loop-header entries ({@link LoopLimit}), at the top of a kernel with loops. */
  LoopLimit countLoops(int subgroupId, int invocations) {
    return new LoopLimit(fn, faults, this::memoryOperands, subgroupId, invocations);
  }

  /**
   * Whether a check can fail: an array access under bounds checks, an integer division or
   * remainder, or a loop (counted on devices that cut loops).
   */
  private boolean hasChecks(Program program) {
    return Walk.anyStatement(program.body(), Stmt.Loop.class::isInstance)
        || boundsChecks
            && (Walk.anyExpression(
                    program.body(),
                    expression ->
                        expression instanceof Expr.Load || expression instanceof Expr.Checked)
                || Walk.anyStatement(
                    program.body(),
                    statement ->
                        statement instanceof Stmt.Store || statement instanceof Stmt.Atomic))
        || Walk.anyExpression(
            program.body(),
            expression ->
                expression instanceof Expr.Binary binary
                        && (binary.op() == BinaryOp.DIV || binary.op() == BinaryOp.REM)
                        && (binary.type() == PrimType.INT || binary.type() == PrimType.LONG)
                    || expression instanceof Expr.Call call && call.function().mayFault())
        || boundsChecks
            && Walk.anyStatement(
                program.body(),
                statement ->
                    statement instanceof Stmt.Copy
                        || statement instanceof Stmt.Matrix matrix
                            && (matrix.op() instanceof MatrixOp.Load
                                || matrix.op() instanceof MatrixOp.Store));
  }

  void declareShared(SharedArray shared) {
    arrays.put(
        shared.name(),
        FixedArrays.shared(
            fn, quads, parameterLengths, shared, quadArrays.contains(shared.name())));
  }

  void declarePrivate(PrivateArray array) {
    arrays.put(
        array.name(),
        FixedArrays.privateArray(fn, quads, array, quadArrays.contains(array.name())));
  }

  /**
   * {@code array[index]}; with bounds checks an index out of bounds reads 0 and is reported. {@code
   * bound}: how the index is known to be in bounds ({@link Bound#PROVEN}: not checked).
   */
  int load(String array, PrimType element, int index, int line, Bound bound) {
    int type = fn.typeOf(element);
    if (!boundsChecks || bound == Bound.PROVEN) {
      return read(array, index);
    }
    // Without a branch: read element 0 (a buffer binds one element more than it holds, so even an
    // empty one has it; shared and private arrays are never empty) and give 0 where out of bounds.
    int check = inBounds(array, index, bound);
    indexFaultUnless(check, array, index, line);
    int loaded =
        read(array, fn.op(SpvOpSelect, module.typeInt(), check, index, module.constantInt(0)));
    return fn.op(SpvOpSelect, type, check, loaded, fn.zero(element));
  }

  /**
   * The element at {@code pointer} as the kernel holds it: a narrow buffer element sign-extended
   * (zero-extended for char), a boolean one compared with 0.
   */
  private int widened(String array, int pointer) {
    ArrayVariable target = arrays.get(array);
    int stored =
        fn.load(target.storageType(), pointer, memoryOperands(target.storageClass(), false));
    if (!target.narrowStorage()) {
      return stored;
    }
    if (target.storageClass() == SpvStorageClassWorkgroup) { // packed shorts: float16 bits
      stored = fn.op(SpvOpBitcast, module.type(SpvOpTypeInt, 16, 0), stored);
    }
    int u32 = module.typeUint();
    return switch (target.element()) {
      case BYTE, SHORT -> fn.op(SpvOpSConvert, module.typeInt(), stored);
      case CHAR -> fn.op(SpvOpBitcast, module.typeInt(), fn.op(SpvOpUConvert, u32, stored));
      default ->
          fn.op(
              SpvOpINotEqual,
              module.typeBool(),
              fn.op(SpvOpUConvert, u32, stored),
              module.constantUint(0));
    };
  }

  /**
   * {@code value} as {@code array} stores it: a narrow buffer element's low bits, a boolean as 1 or
   * 0.
   */
  private int stored(String array, int value) {
    ArrayVariable target = arrays.get(array);
    if (!target.narrowStorage()) {
      return value;
    }
    int bits =
        target.element() == PrimType.BOOLEAN
            ? fn.op(
                SpvOpSelect, module.typeInt(), value, module.constantInt(1), module.constantInt(0))
            : value;
    if (target.storageClass() == SpvStorageClassWorkgroup) { // packed shorts: float16 bits
      return fn.op(
          SpvOpBitcast,
          target.storageType(),
          fn.op(SpvOpUConvert, module.type(SpvOpTypeInt, 16, 0), bits));
    }
    return fn.op(SpvOpUConvert, target.storageType(), bits);
  }

  /**
   * {@code array[index] = value}; with bounds checks an index out of bounds writes nothing and is
   * reported. {@code bound}: how the index is known to be in bounds ({@link Bound#PROVEN}: not
   * checked).
   */
  void store(String array, int index, int value, int line, Bound bound) {
    if (boundsChecks && bound != Bound.PROVEN) {
      int check = inBounds(array, index, bound);
      indexFaultUnless(check, array, index, line);
      fn.when(check, () -> write(array, index, value));
    } else {
      write(array, index, value);
    }
  }

  /**
   * An atomic update, its previous value stored to {@code result} (a variable; 0 for none); with
   * bounds checks an index out of bounds updates nothing, yields 0 and is reported, unless the
   * index is proven in bounds ({@code bound}).
   */
  void atomic(Stmt.Atomic atomic, int index, int value, int expected, int result, Bound bound) {
    String array = atomic.array().name();
    Runnable update =
        () -> {
          int previous =
              Atomics.update(
                  fn,
                  atomic,
                  arrays.get(array).storageClass() == SpvStorageClassWorkgroup,
                  element(array, index),
                  value,
                  expected);
          if (result != 0) {
            fn.store(result, previous);
          }
        };
    if (!boundsChecks || bound == Bound.PROVEN) {
      update.run();
      return;
    }
    int check = inBounds(array, index, bound);
    indexFaultUnless(check, array, index, atomic.site().line());
    fn.ifElse(
        check,
        update,
        () -> {
          if (result != 0) {
            fn.store(result, fn.zero(atomic.array().element()));
          }
        });
  }

  /**
   * A pointer to element {@code index} of {@code array}, unchecked: the first element of a tile.
   */
  int tileStart(String array, int index) {
    return arrays.get(array).quads()
        ? quads.pointer(arrays.get(array), quads.quadOf(arrays.get(array), index))
        : element(array, index);
  }

  /**
   * A tile's stride as its load or store takes it: in the array's elements, or in quads for an
   * array held as quads (a tile's stride is a multiple of 8 of its 16-bit elements, or it faults
   * before the access).
   */
  int tileStride(String array, int stride) {
    return arrays.get(array).quads() ? quads.quadOf(arrays.get(array), stride) : stride;
  }

  /** Sets a private array to zeros. */
  void clear(PrivateArray array) {
    ArrayVariable variable = arrays.get(array.name());
    int type =
        variable.quads()
            ? quads.arrayType(variable.length(), variable.element())
            : module.type(
                SpvOpTypeArray,
                fn.typeOf(variable.element()),
                module.constantUint(variable.length()));
    fn.store(variable.variable(), module.constantNull(type));
  }

  /** The length of the array named {@code array}, as an int. */
  int lengthOf(String array) {
    ArrayVariable target = arrays.get(array);
    if (target.parameterLength() != 0) {
      return fn.op(SpvOpBitcast, module.typeInt(), target.parameterLength());
    }
    return target.length() < 0
        ? fn.op(SpvOpBitcast, module.typeInt(), bufferLength(target.variable()))
        : module.constantInt(target.length());
  }

  /** {@code array[index]} as the kernel holds it, unchecked. */
  int read(String array, int index) {
    return arrays.get(array).quads()
        ? quads.element(arrays.get(array), index)
        : widened(array, element(array, index));
  }

  /** {@code array[index] = value}, unchecked. */
  void write(String array, int index, int value) {
    if (arrays.get(array).quads()) {
      quads.setElement(arrays.get(array), index, value);
    } else {
      fn.store(
          element(array, index),
          stored(array, value),
          memoryOperands(arrays.get(array).storageClass(), true));
    }
  }

  /** A buffer's length, as an int. */
  int length(BufferDecl buffer) {
    return fn.op(
        SpvOpBitcast, module.typeInt(), bufferLength(arrays.get(buffer.name()).variable()));
  }

  /**
   * {@code 0 <= index < array.length}, as one unsigned comparison; for an index {@link
   * Bound#AT_LAUNCH}, or'ed with the specialization constant that says the launch proved it ({@link
   * #checksSettled}).
   */
  private int inBounds(String array, int index, Bound bound) {
    ArrayVariable target = arrays.get(array);
    int length =
        target.parameterLength() != 0
            ? target.parameterLength()
            : target.length() < 0
                ? bufferLength(target.variable())
                : module.constantUint(target.length());
    int inBounds =
        fn.op(
            SpvOpULessThan,
            module.typeBool(),
            fn.op(SpvOpBitcast, module.typeUint(), index),
            length);
    return bound == Bound.AT_LAUNCH
        ? fn.op(SpvOpLogicalOr, module.typeBool(), checksSettled(), inBounds)
        : inBounds;
  }

  /**
   * The boolean specialization constant {@link LaunchAbi#CHECKS_SETTLED_SPEC_ID}, declared on first
   * use: the runtime sets it where a launch proves every access {@link Bound#AT_LAUNCH} in bounds,
   * and the driver then folds their checks away.
   */
  int checksSettled() {
    if (checksSettled == 0) {
      checksSettled = module.id();
      module.globals.op(SpvOpSpecConstantFalse, module.typeBool(), checksSettled);
      module.decorate(checksSettled, SpvDecorationSpecId, LaunchAbi.CHECKS_SETTLED_SPEC_ID);
      module.name(checksSettled, "checksSettled");
    }
    return checksSettled;
  }

  /**
   * A buffer's length in elements, as a uint: one less than its runtime array's, since the runtime
   * binds one element more than the array holds (an empty array still needs a binding; see {@link
   * PushConstantBlock}).
   */
  private int bufferLength(int variable) {
    return fn.op(
        SpvOpISub,
        module.typeUint(),
        fn.op(SpvOpArrayLength, module.typeUint(), variable, 0),
        module.constantUint(1));
  }

  /**
   * {@code index} checked as Java checks an index into a local array of {@code length} elements: a
   * dimension of a private array of two or three. With bounds checks, out of bounds it is reported
   * and 0.
   */
  int checked(int index, int length, int line) {
    if (!boundsChecks) {
      return index;
    }
    int check =
        fn.op(
            SpvOpULessThan,
            module.typeBool(),
            fn.op(SpvOpBitcast, module.typeUint(), index),
            module.constantUint(length));
    faults.recordIf(
        fn.op(SpvOpLogicalNot, module.typeBool(), check),
        Faults.INDEX,
        Faults.LOCAL_ARRAY | length,
        index,
        line);
    return fn.op(SpvOpSelect, module.typeInt(), check, index, module.constantInt(0));
  }

  /** Records an index fault unless {@code inBounds}. */
  private void indexFaultUnless(int inBounds, String array, int index, int line) {
    faults.recordIf(
        fn.op(SpvOpLogicalNot, module.typeBool(), inBounds),
        Faults.INDEX,
        arrays.get(array).faultTag(),
        index,
        line);
  }

  /** A pointer to {@code array[index]}. */
  private int element(String array, int index) {
    ArrayVariable target = arrays.get(array);
    int element = target.storageType();
    return target.storageClass() == SpvStorageClassStorageBuffer
        ? fn.accessChain(
            SpvStorageClassStorageBuffer, element, target.variable(), module.constantInt(0), index)
        : fn.accessChain(target.storageClass(), element, target.variable(), index);
  }
}
