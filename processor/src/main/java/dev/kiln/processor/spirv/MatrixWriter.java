package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.analysis.IndexBounds;
import dev.kiln.processor.analysis.IndexBounds.Bound;
import dev.kiln.processor.analysis.Multiples;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Fragment;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.Stmt;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Cooperative matrices as SPV_KHR_cooperative_matrix writes them: each {@link Fragment} a Function
 * variable of an {@code OpTypeCooperativeMatrixKHR} of subgroup scope, 16 x 16; A and B of float16
 * or bfloat16 (SPV_KHR_bfloat16; loaded through the 16-bit ints a {@code short[]} buffer holds),
 * accumulators of floats. A tile in workgroup memory is loaded and stored with the memory operands
 * of the Vulkan memory model, which modules with matrices use ({@link
 * MemoryAccess#useVulkanMemoryModel}).
 */
final class MatrixWriter {
  private final FunctionBuilder fn;
  private final SpirvModule module;
  private final MemoryAccess memory;
  private final ToIntFunction<Expr> values;

  /** What proves a tile's offset and stride aligned. */
  private final Multiples multiples;

  /** What proves a tile's extent in bounds. */
  private final IndexBounds bounds;

  private final Map<Fragment, Integer> variables = new HashMap<>();

  /**
   * The element type of each A and B fragment, from the loads and copies that assign it, in program
   * order.
   */
  private final Map<Fragment, Fragment.Element> elements = new HashMap<>();

  /**
   * OpTypeFloat's floating-point encoding operand for bfloat16 (SPV_KHR_bfloat16's BFloat16KHR).
   */
  private static final int BFLOAT16_ENCODING = 0;

  MatrixWriter(
      FunctionBuilder fn,
      MemoryAccess memory,
      ToIntFunction<Expr> values,
      Multiples multiples,
      IndexBounds bounds) {
    this.multiples = multiples;
    this.bounds = bounds;
    this.fn = fn;
    this.module = fn.module();
    this.memory = memory;
    this.values = values;
  }

  void write(Stmt.Matrix matrix) {
    switch (matrix.op()) {
      case MatrixOp.Fill fill ->
          set(
              fill.target(),
              fn.op(SpvOpCompositeConstruct, type(fill.target()), values.applyAsInt(fill.value())));
      case MatrixOp.Load load -> {
        elements.put(load.target(), load.element());
        int offset = values.applyAsInt(load.offset());
        int stride = values.applyAsInt(load.stride());
        String array = load.array().name();
        tile(
            matrix,
            load.array(),
            load.offset(),
            load.stride(),
            offset,
            stride,
            () ->
                set(
                    load.target(),
                    fn.op(
                        SpvOpCooperativeMatrixLoadKHR,
                        type(load.target()),
                        then(
                            memory.tileOperands(array, false),
                            memory.tileStart(array, offset),
                            layout(load.columnMajor()),
                            memory.tileStride(array, stride)))));
      }
      case MatrixOp.Store store -> {
        int offset = values.applyAsInt(store.offset());
        int stride = values.applyAsInt(store.stride());
        int[] operands = memory.tileOperands(store.array().name(), true);
        String array = store.array().name();
        tile(
            matrix,
            store.array(),
            store.offset(),
            store.stride(),
            offset,
            stride,
            () ->
                fn.instruction(
                    SpvOpCooperativeMatrixStoreKHR,
                    then(
                        operands,
                        memory.tileStart(array, offset),
                        get(store.source()),
                        layout(store.columnMajor()),
                        memory.tileStride(array, stride))));
      }
      case MatrixOp.MultiplyAdd m ->
          set(
              m.target(),
              fn.op(
                  SpvOpCooperativeMatrixMulAddKHR,
                  type(m.target()),
                  get(m.a()),
                  get(m.b()),
                  get(m.c())));
      // scaled and added as written, each element rounded as Java's float product and sum are (a
      // driver may not fuse them into one rounding)
      case MatrixOp.Scale scale ->
          set(
              scale.target(),
              fn.exactOp(
                  SpvOpMatrixTimesScalar,
                  type(scale.target()),
                  get(scale.source()),
                  values.applyAsInt(scale.factor())));
      case MatrixOp.Add add ->
          set(add.target(), fn.exactOp(SpvOpFAdd, type(add.target()), get(add.x()), get(add.y())));
      case MatrixOp.Copy copy -> {
        elements.computeIfAbsent(copy.target(), target -> elements.get(copy.source()));
        set(copy.target(), get(copy.source()));
      }
    }
  }

  /**
   * Emits {@code access} where the tile at {@code offset} lies in the array: its elements span
   * {@code offset + min(0, 15 * stride)} to {@code offset + max(0, 15 * stride) + 15} in either
   * layout. {@code offsetExpr} and {@code strideExpr} are the ids' expressions, for what the
   * analyses prove of them.
   */
  private void tile(
      Stmt.Matrix matrix,
      ArrayDecl array,
      Expr offsetExpr,
      Expr strideExpr,
      int offset,
      int stride,
      Runnable access) {
    int multiple = LaunchAbi.MATRIX_ALIGNMENT_BYTES / array.element().bytes();
    boolean aligned =
        multiples.isMultiple(offsetExpr, multiple) && multiples.isMultiple(strideExpr, multiple);
    IndexBounds.Bound extent = bounds.bound(matrix);
    if (!memory.boundsChecks() || aligned && extent == IndexBounds.Bound.PROVEN) {
      access.run();
      return;
    }
    int integer = module.typeInt();
    int span = fn.op(SpvOpIMul, integer, stride, module.constantInt(Fragment.SIDE - 1));
    int negative = fn.op(SpvOpSLessThan, module.typeBool(), span, module.constantInt(0));
    int lowest =
        fn.op(
            SpvOpIAdd,
            integer,
            offset,
            fn.op(SpvOpSelect, integer, negative, span, module.constantInt(0)));
    int highest =
        fn.op(
            SpvOpIAdd,
            integer,
            offset,
            fn.op(
                SpvOpIAdd,
                integer,
                fn.op(SpvOpSelect, integer, negative, module.constantInt(0), span),
                module.constantInt(Fragment.SIDE - 1)));
    tile(
        array.name(),
        offset,
        stride,
        lowest,
        highest,
        matrix.site().line(),
        aligned,
        extent,
        access);
  }

  /** {@code operands} followed by {@code memoryOperands}. */
  private static int[] then(int[] memoryOperands, int... operands) {
    int[] all = Arrays.copyOf(operands, operands.length + memoryOperands.length);
    System.arraycopy(memoryOperands, 0, all, operands.length, memoryOperands.length);
    return all;
  }

  private int layout(boolean columnMajor) {
    return module.constantUint(
        columnMajor ? 1 : 0); // CooperativeMatrixLayoutRowMajorKHR, ColumnMajorKHR
  }

  private int get(Fragment fragment) {
    return fn.load(type(fragment), variable(fragment));
  }

  private void set(Fragment fragment, int value) {
    fn.store(variable(fragment), value);
  }

  private int variable(Fragment fragment) {
    return variables.computeIfAbsent(
        fragment,
        f -> {
          int variable = fn.temporary(type(f));
          module.name(variable, f.name());
          return variable;
        });
  }

  /** The fragment's matrix type, declaring the capability and extension on first use. */
  private int type(Fragment fragment) {
    module.require(DeviceFeature.COOPERATIVE_MATRICES);
    int component =
        switch (fragment.use() == Fragment.Use.ACCUMULATOR
            ? Fragment.Element.FLOAT
            : elements.getOrDefault(fragment, Fragment.Element.FLOAT16)) {
          case FLOAT -> module.typeFloat();
          case FLOAT16 -> {
            module.require(DeviceFeature.FLOAT16_MATRICES);
            yield module.type(SpvOpTypeFloat, 16);
          }
          case BFLOAT16 -> {
            module.require(DeviceFeature.BFLOAT16_MATRICES);
            yield module.type(SpvOpTypeFloat, 16, BFLOAT16_ENCODING);
          }
        };
    int use =
        switch (fragment.use()) {
          case A -> 0; // CooperativeMatrixUseMatrixAKHR
          case B -> 1;
          case ACCUMULATOR -> 2;
        };
    return module.type(
        SpvOpTypeCooperativeMatrixKHR,
        component,
        module.constantUint(SpvScopeSubgroup),
        module.constantUint(Fragment.SIDE),
        module.constantUint(Fragment.SIDE),
        module.constantUint(use));
  }

  /**
   * Emits {@code access}, a cooperative-matrix load or store of buffer or workgroup array {@code
   * array} at {@code offset} with {@code stride}, whose elements span the indices {@code lowest} to
   * {@code highest} (all int ids); with bounds checks only where offset and stride are multiples of
   * 16 bytes (Vulkan's matrix loads need it) and the span lies in the buffer, recording as the
   * fault the misaligned offset, else stride, or else the lowest index below 0, else the highest
   * one past the end (what {@code dev.kiln.matrix.Matrices} throws on the CPU). {@code aligned}:
   * whether offset and stride are known multiples; {@code extent}: how the span is known in bounds
   * (the caller runs a tile with neither to check, or with no bounds checks, itself).
   */
  private void tile(
      String array,
      int offset,
      int stride,
      int lowest,
      int highest,
      int line,
      boolean aligned,
      Bound extent,
      Runnable access) {
    int bool = module.typeBool();
    int integer = module.typeInt();
    int alignedHere = module.constantBool(true);
    if (!aligned) {
      // a multiple of a power of two, in two's complement: no bit below it set (no remainder to
      // compute)
      int lowBits =
          module.constantInt(
              LaunchAbi.MATRIX_ALIGNMENT_BYTES / memory.array(array).element().bytes() - 1);
      int offsetAligned =
          fn.op(
              SpvOpIEqual,
              bool,
              fn.op(SpvOpBitwiseAnd, integer, offset, lowBits),
              module.constantInt(0));
      int strideAligned =
          fn.op(
              SpvOpIEqual,
              bool,
              fn.op(SpvOpBitwiseAnd, integer, stride, lowBits),
              module.constantInt(0));
      alignedHere = fn.op(SpvOpLogicalAnd, bool, offsetAligned, strideAligned);
      memory
          .faults()
          .recordIf(
              fn.op(SpvOpLogicalNot, bool, alignedHere),
              Faults.MATRIX_ALIGNMENT,
              0,
              fn.op(SpvOpSelect, integer, offsetAligned, stride, offset),
              line);
    }
    int inside = module.constantBool(true);
    if (extent != Bound.PROVEN) {
      int lowOk = fn.op(SpvOpSGreaterThanEqual, bool, lowest, module.constantInt(0));
      int highOk = fn.op(SpvOpSLessThan, bool, highest, memory.lengthOf(array));
      inside = fn.op(SpvOpLogicalAnd, bool, lowOk, highOk);
      memory
          .faults()
          .recordIf(
              fn.op(SpvOpLogicalNot, bool, inside),
              Faults.INDEX,
              memory.array(array).faultTag(),
              fn.op(SpvOpSelect, module.typeInt(), lowOk, highest, lowest),
              line);
      if (extent == Bound.AT_LAUNCH) {
        inside = fn.op(SpvOpLogicalOr, bool, memory.checksSettled(), inside);
      }
    }
    fn.when(fn.op(SpvOpLogicalAnd, bool, alignedHere, inside), access);
  }
}
