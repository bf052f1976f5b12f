package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.PrimType;

/**
 * Builds the one function of a module: its variables (which must open the entry block), its blocks
 * and instructions, and the structured-control-flow helpers the writers share. Knows nothing of the
 * IR beyond its primitive types.
 */
final class FunctionBuilder {
  private final SpirvModule module;

  /** The function's OpVariables, which must open its first block. */
  private final Words variables = new Words();

  /** The function's other instructions. */
  private final Words code = new Words();

  private int entry;
  private int currentLabel;
  private boolean open;
  private Runnable beforeReturn = () -> {};

  FunctionBuilder(SpirvModule module) {
    this.module = module;
  }

  SpirvModule module() {
    return module;
  }

  /** Opens the entry block: instructions emitted from now on go into the function. */
  void begin() {
    entry = module.id();
    currentLabel = entry;
    open = true;
  }

  /** Makes {@code code} run before every return of the function, which it emits. */
  void beforeReturn(Runnable code) {
    beforeReturn = code;
  }

  /** Returns from the function, after the code given to {@link #beforeReturn}. */
  void ret() {
    beforeReturn.run();
    terminate(SpvOpReturn);
  }

  /** Ends the function (returning where it is open) and adds it to the module as {@code main}. */
  void finish(int main, int functionType) {
    if (open) {
      ret();
    }
    module.functions.op(
        SpvOpFunction, module.typeVoid(), main, SpvFunctionControlMaskNone, functionType);
    module.functions.op(SpvOpLabel, entry);
    module.functions.addAll(variables);
    module.functions.addAll(code);
    module.functions.op(SpvOpFunctionEnd);
  }

  // ---- types, constants, variables

  int typeOf(PrimType type) {
    return switch (type) {
      case BOOLEAN -> module.typeBool();
      case INT, BYTE, SHORT, CHAR -> module.typeInt();
      case LONG -> module.typeLong();
      case FLOAT -> module.typeFloat();
      case DOUBLE -> module.typeDouble();
    };
  }

  /** The constant {@code value} of a numeric type. */
  int constant(PrimType type, long value) {
    return switch (type) {
      case INT, BYTE, SHORT, CHAR -> module.constantInt((int) value);
      case LONG -> module.constantLong(value);
      case FLOAT -> module.constantFloat(value);
      case DOUBLE -> module.constantDouble(value);
      case BOOLEAN -> module.constantBool(value != 0);
    };
  }

  /**
   * The int {@code value} narrowed to {@code type} and widened back as Java holds it:
   * sign-extended, or zero-extended for char.
   */
  int narrow(int value, PrimType type) {
    int i32 = module.typeInt();
    return switch (type) {
      case BYTE ->
          op(
              SpvOpShiftRightArithmetic,
              i32,
              op(SpvOpShiftLeftLogical, i32, value, module.constantInt(24)),
              module.constantInt(24));
      case SHORT ->
          op(
              SpvOpShiftRightArithmetic,
              i32,
              op(SpvOpShiftLeftLogical, i32, value, module.constantInt(16)),
              module.constantInt(16));
      case CHAR -> op(SpvOpBitwiseAnd, i32, value, module.constantInt(0xffff));
      default -> throw new IllegalArgumentException(type + " is not narrow");
    };
  }

  int zero(PrimType type) {
    return constant(type, 0);
  }

  int globalVariable(int storageClass, int pointee) {
    if (storageClass == SpvStorageClassWorkgroup) {
      module.addWorkgroupBytes(module.bytesOf(pointee));
    }
    int variable = module.id();
    module.globals.op(
        SpvOpVariable, module.typePointer(storageClass, pointee), variable, storageClass);
    return variable;
  }

  /** A new Function-storage variable of {@code type}, declared in the entry block. */
  int temporary(int type) {
    int variable = module.id();
    variables.op(
        SpvOpVariable,
        module.typePointer(SpvStorageClassFunction, type),
        variable,
        SpvStorageClassFunction);
    return variable;
  }

  /**
   * A new Function-storage variable of {@code type} that starts as the constant {@code initial}.
   */
  int temporary(int type, int initial) {
    int variable = module.id();
    variables.op(
        SpvOpVariable,
        module.typePointer(SpvStorageClassFunction, type),
        variable,
        SpvStorageClassFunction,
        initial);
    return variable;
  }

  // ---- instructions

  /** Emits {@code opcode resultType result operands...} and returns the result id. */
  int op(int opcode, int resultType, int... operands) {
    int result = module.id();
    code.op(opcode, SpirvModule.prepend(resultType, SpirvModule.prepend(result, operands)));
    return result;
  }

  /** Emits an instruction without a result. */
  void instruction(int opcode, int... operands) {
    code.op(opcode, operands);
  }

  /**
   * An instruction the driver must compute as written: NoContraction, which Mesa and others also
   * read as "no value-changing rewrite" (without it lavapipe folds {@code (int) (float) a} to
   * {@code a}).
   */
  int exactOp(int opcode, int resultType, int... operands) {
    int result = op(opcode, resultType, operands);
    module.decorate(result, SpvDecorationNoContraction);
    return result;
  }

  int load(int type, int pointer) {
    return op(SpvOpLoad, type, pointer);
  }

  /** A load with memory operands: a mask and the ids it asks for. */
  int load(int type, int pointer, int[] memoryOperands) {
    return op(SpvOpLoad, type, SpirvModule.prepend(pointer, memoryOperands));
  }

  void store(int pointer, int value) {
    code.op(SpvOpStore, pointer, value);
  }

  /** A store with memory operands: a mask and the ids it asks for. */
  void store(int pointer, int value, int[] memoryOperands) {
    code.op(SpvOpStore, SpirvModule.prepend(pointer, SpirvModule.prepend(value, memoryOperands)));
  }

  int accessChain(int storageClass, int pointee, int base, int... indices) {
    int[] operands = new int[indices.length + 1];
    operands[0] = base;
    System.arraycopy(indices, 0, operands, 1, indices.length);
    return op(SpvOpAccessChain, module.typePointer(storageClass, pointee), operands);
  }

  /** A GLSL.std.450 instruction. */
  int glsl(int instruction, int resultType, int... operands) {
    return op(
        SpvOpExtInst,
        resultType,
        SpirvModule.prepend(module.glsl(), SpirvModule.prepend(instruction, operands)));
  }

  /**
   * Java's float or double to int or long: truncation, saturating at the target's range, NaN to 0
   * (JLS 5.1.3).
   */
  int floatToInteger(int value, PrimType from, PrimType to) {
    int target = typeOf(to);
    int bool = module.typeBool();
    int bits = to == PrimType.LONG ? 63 : 31;
    int limit =
        from == PrimType.DOUBLE
            ? module.constantDouble(Math.scalb(1.0, bits))
            : module.constantFloat(Math.scalb(1f, bits));
    int negativeLimit =
        from == PrimType.DOUBLE
            ? module.constantDouble(-Math.scalb(1.0, bits))
            : module.constantFloat(-Math.scalb(1f, bits));
    int truncated = exactOp(SpvOpConvertFToS, target, value);
    int tooHigh = op(SpvOpFOrdGreaterThanEqual, bool, value, limit);
    int tooLow = op(SpvOpFOrdLessThanEqual, bool, value, negativeLimit);
    long max = to == PrimType.LONG ? Long.MAX_VALUE : Integer.MAX_VALUE;
    long min = to == PrimType.LONG ? Long.MIN_VALUE : Integer.MIN_VALUE;
    int high = op(SpvOpSelect, target, tooHigh, constant(to, max), truncated);
    int low = op(SpvOpSelect, target, tooLow, constant(to, min), high);
    return op(SpvOpSelect, target, op(SpvOpIsNan, bool, value), zero(to), low);
  }

  // ---- blocks and structured control flow

  void label(int id) {
    code.op(SpvOpLabel, id);
    currentLabel = id;
    open = true;
  }

  /** The block instructions go into now. */
  int currentLabel() {
    return currentLabel;
  }

  /** Whether the current block still needs a terminator. */
  boolean isOpen() {
    return open;
  }

  void terminate(int opcode, int... operands) {
    code.op(opcode, operands);
    open = false;
  }

  void branchIfOpen(int target) {
    if (open) {
      terminate(SpvOpBranch, target);
    }
  }

  /** Opens a merge block; one that no branch reaches holds only OpUnreachable. */
  void mergeBlock(int merge, boolean reached) {
    label(merge);
    if (!reached) {
      terminate(SpvOpUnreachable);
    }
  }

  /** Emits {@code if (condition) { then }} where {@code then} emits code that ends open. */
  void when(int condition, Runnable then) {
    ifElse(condition, then, () -> {});
  }

  /** Emits {@code if (condition) { then } else { otherwise }} of code that ends open. */
  void ifElse(int condition, Runnable then, Runnable otherwise) {
    int thenLabel = module.id();
    int otherwiseLabel = module.id();
    int merge = module.id();
    code.op(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    terminate(SpvOpBranchConditional, condition, thenLabel, otherwiseLabel);
    label(thenLabel);
    then.run();
    branchIfOpen(merge);
    label(otherwiseLabel);
    otherwise.run();
    branchIfOpen(merge);
    label(merge);
  }

  /**
   * Starts a structured loop: the caller emits the test and body, then calls {@link #closeLoop}.
   */
  LoopBlocks openLoop() {
    LoopBlocks blocks = new LoopBlocks(module.id(), module.id(), module.id(), module.id());
    branchIfOpen(blocks.header());
    label(blocks.header());
    code.op(SpvOpLoopMerge, blocks.merge(), blocks.next(), SpvLoopControlMaskNone);
    terminate(SpvOpBranch, blocks.test());
    label(blocks.test());
    return blocks;
  }

  /** Ends the body of a loop opened by {@link #openLoop} and goes on at its merge block. */
  void closeLoop(LoopBlocks blocks) {
    branchIfOpen(blocks.next());
    label(blocks.next());
    terminate(SpvOpBranch, blocks.header());
    label(blocks.merge());
  }

  /** The blocks of a loop whose test block branches to {@code body} or {@code merge}. */
  record LoopBlocks(int header, int test, int next, int merge) {
    /** Ends the test: on {@code condition} run the body (returned), else leave the loop. */
    int bodyIf(FunctionBuilder fn, int condition) {
      int body = fn.module.id();
      fn.terminate(SpvOpBranchConditional, condition, body, merge);
      fn.label(body);
      return body;
    }
  }
}
