package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.LaunchAbi;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link Program} as a SPIR-V 1.3 compute module for Vulkan 1.1: logical addressing,
 * GLSL450 memory model, storage-buffer runtime arrays, a push-constant block and structured
 * control flow, with the push-constant block of {@link LaunchAbi}. The program's body says itself
 * which invocations do something (see {@code pass.Gate}).
 */
public final class SpirvWriter {
  private final Program program;
  private final SpirvModule module = new SpirvModule();
  /** The function's OpVariables, which must open its first block. */
  private final Words variables = new Words();
  /** The function's other instructions. */
  private final Words code = new Words();
  private final Map<Local, Integer> localVariables = new HashMap<>();
  private final Map<String, Integer> scalarMembers = new HashMap<>();
  private final Map<String, ArrayVariable> arrays = new HashMap<>();
  private final Map<PrimType, Integer> bufferStructs = new EnumMap<>(PrimType.class);
  private final Map<Builtin, Integer> builtinVariables = new EnumMap<>(Builtin.class);
  private final Map<Integer, Integer> scalarBuiltins = new java.util.TreeMap<>();
  private final Deque<LoopTargets> loops = new ArrayDeque<>();
  private Faults faults;
  private final VectorAccess vectors;
  private int pushConstants;
  private int currentLabel;
  private boolean open;

  /**
   * An array the kernel indexes: a storage buffer (runtime length, {@code length < 0}) or a shared
   * array (constant length). {@code faultTag} names it in a fault record.
   */
  private record ArrayVariable(int variable, int storageClass, PrimType element, int length, int faultTag) {}

  /**
   * Where {@code break} and {@code continue} of one loop or switch go ({@code next} is 0 for a
   * switch), and whether any did.
   */
  private static final class LoopTargets {
    final int merge;
    final int next;
    boolean broke;
    boolean continued;

    LoopTargets(int merge, int next) {
      this.merge = merge;
      this.next = next;
    }
  }

  private SpirvWriter(Program program) {
    this.program = program;
    this.vectors = new VectorAccess(this, program.elementsPerInvocation());
  }

  /** The module's binary. */
  public static byte[] write(Program program) {
    return new SpirvWriter(program).emit();
  }

  private byte[] emit() {
    module.capability(SpvCapabilityShader);
    module.memoryModel.op(SpvOpMemoryModel, SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    declarePushConstants();
    for (BufferDecl buffer : program.buffers()) {
      declareBuffer(buffer);
    }
    faults = new Faults(this, program.buffers().size());
    for (SharedArray shared : program.shared()) {
      declareShared(shared);
    }
    int main = module.id();
    module.name(main, "main");
    int functionType = module.type(SpvOpTypeFunction, module.typeVoid());

    int entry = module.id();
    currentLabel = entry;
    open = true;
    for (Local local : program.locals()) {
      declareLocal(local);
    }
    for (PrivateArray array : program.privates()) {
      declarePrivate(array);
    }
    body();

    module.functions.op(SpvOpFunction, module.typeVoid(), main, SpvFunctionControlMaskNone, functionType);
    module.functions.op(SpvOpLabel, entry);
    module.functions.addAll(variables);
    module.functions.addAll(code);
    module.functions.op(SpvOpFunctionEnd);

    int[] interfaceVariables = java.util.stream.Stream.concat(builtinVariables.values().stream(),
        scalarBuiltins.values().stream()).mapToInt(Integer::intValue).toArray();
    module.entryPoints.opWithString(SpvOpEntryPoint, new int[] {SpvExecutionModelGLCompute, main}, "main", interfaceVariables);
    module.executionModes.op(SpvOpExecutionMode, main, SpvExecutionModeLocalSize,
        program.workgroup().x(), program.workgroup().y(), program.workgroup().z());
    preserveSignedZerosInfinitiesAndNaNs(main);
    if (program.elementsPerInvocation() > 1) {
      VectorAccess.declareElementsPerInvocation(module, program.elementsPerInvocation());
    }
    return module.toBytes();
  }

  /**
   * Java keeps the sign of zero and computes with infinities and NaNs; without this mode drivers
   * may rewrite {@code 0f - x} as {@code -x} (lavapipe does). Needs VK_KHR_shader_float_controls.
   */
  private void preserveSignedZerosInfinitiesAndNaNs(int main) {
    module.capability(SpvCapabilitySignedZeroInfNanPreserve);
    module.extension("SPV_KHR_float_controls");
    module.executionModes.op(SpvOpExecutionMode, main, SpvExecutionModeSignedZeroInfNanPreserve, 32);
    if (module.hasCapability(SpvCapabilityFloat64)) {
      module.executionModes.op(SpvOpExecutionMode, main, SpvExecutionModeSignedZeroInfNanPreserve, 64);
    }
  }

  /** The body, then a return where it ends open. */
  private void body() {
    statements(program.body());
    if (open) {
      terminate(SpvOpReturn);
    }
  }

  /**
   * Whether the invocation (or, for {@code wholeWorkgroups}, its workgroup) lies inside arm
   * {@code arm}'s grid, compared unsigned along each axis.
   */
  private int inLaunch(Expr.InLaunch gate) {
    int bool = module.typeBool();
    int inside = 0;
    for (int axis = 0; axis < 3; axis++) {
      int test = gate.wholeWorkgroups()
          ? op(SpvOpULessThan, bool, builtinComponent(Builtin.WORKGROUP_ID, axis),
              armWorkgroups(gate.arm(), axis, program.workgroup().size(axis)))
          : op(SpvOpULessThan, bool, builtinComponent(Builtin.GLOBAL_ID, axis), armCount(gate.arm(), axis));
      inside = axis == 0 ? test : op(SpvOpLogicalAnd, bool, inside, test);
    }
    return inside;
  }

  /** Workgroups of {@code size} invocations that cover arm {@code arm}'s grid along {@code axis}, as a uint. */
  private int armWorkgroups(int arm, int axis, int size) {
    int uint = module.typeUint();
    int roundedUp = op(SpvOpIAdd, uint, armCount(arm, axis), module.constantUint(size - 1));
    return op(SpvOpUDiv, uint, roundedUp, module.constantUint(size));
  }

  private int armCount(int arm, int axis) {
    return launchConstant(LaunchAbi.countMember(program.arms(), arm, axis));
  }

  // ---- declarations

  private void declarePushConstants() {
    List<ScalarParam> scalars = program.scalars();
    int firstScalar = LaunchAbi.firstScalarMember(program.arms());
    int[] offsets = LaunchAbi.scalarOffsets(program.arms(), scalars.stream().map(ScalarParam::type).toList());
    int[] members = new int[firstScalar + scalars.size()];
    Arrays.fill(members, 0, firstScalar, module.typeUint());
    for (int i = 0; i < scalars.size(); i++) {
      members[firstScalar + i] = type(scalars.get(i).type());
      scalarMembers.put(scalars.get(i).name(), firstScalar + i);
    }
    int struct = module.id();
    module.globals.op(SpvOpTypeStruct, SpirvModule.prepend(struct, members));
    module.decorate(struct, SpvDecorationBlock);
    module.name(struct, "PushConstants");
    String[] launch = {"count", "firstGroup", "countY", "countZ"};
    for (int member = 0; member < firstScalar; member++) {
      int arm = (member - LaunchAbi.LAUNCH_MEMBERS) / 3;
      module.memberName(struct, member, member < LaunchAbi.LAUNCH_MEMBERS ? launch[member]
          : "arm" + arm + "Count" + "XYZ".charAt((member - LaunchAbi.LAUNCH_MEMBERS) % 3));
      module.decorateMember(struct, member, SpvDecorationOffset, 4 * member);
    }
    for (int i = 0; i < scalars.size(); i++) {
      module.memberName(struct, firstScalar + i, scalars.get(i).name());
      module.decorateMember(struct, firstScalar + i, SpvDecorationOffset, offsets[i]);
    }
    pushConstants = globalVariable(SpvStorageClassPushConstant, struct);
    module.name(pushConstants, "push");
  }

  private void declareBuffer(BufferDecl buffer) {
    int struct = bufferStructs.computeIfAbsent(buffer.element(), element -> {
      int array = module.type(SpvOpTypeRuntimeArray, type(element));
      module.decorate(array, SpvDecorationArrayStride, element.bytes());
      int id = module.id();
      module.globals.op(SpvOpTypeStruct, id, array);
      module.decorate(id, SpvDecorationBlock);
      module.decorateMember(id, 0, SpvDecorationOffset, 0);
      return id;
    });
    int variable = globalVariable(SpvStorageClassStorageBuffer, struct);
    module.name(variable, buffer.name());
    module.decorate(variable, SpvDecorationDescriptorSet, 0);
    module.decorate(variable, SpvDecorationBinding, buffer.binding());
    if (buffer.access() == Access.READ) {
      module.decorate(variable, SpvDecorationNonWritable);
    }
    arrays.put(buffer.name(), new ArrayVariable(variable, SpvStorageClassStorageBuffer, buffer.element(), -1,
        buffer.binding()));
  }

  private void declarePrivate(PrivateArray array) {
    int type = module.type(SpvOpTypeArray, type(array.element()), module.constantUint(array.size()));
    int variable = temporary(type);
    module.name(variable, array.name());
    arrays.put(array.name(), new ArrayVariable(variable, SpvStorageClassFunction, array.element(), array.size(),
        Faults.LOCAL_ARRAY | array.size()));
  }

  private void declareShared(SharedArray shared) {
    int array = module.type(SpvOpTypeArray, type(shared.element()), module.constantUint(shared.size()));
    int variable = globalVariable(SpvStorageClassWorkgroup, array);
    module.name(variable, shared.name());
    arrays.put(shared.name(), new ArrayVariable(variable, SpvStorageClassWorkgroup, shared.element(), shared.size(),
        Faults.LOCAL_ARRAY | shared.size()));
  }

  private int builtinVariable(Builtin builtin) {
    return builtinVariables.computeIfAbsent(builtin, b -> {
      int vector = module.type(SpvOpTypeVector, module.typeUint(), 3);
      int variable = globalVariable(SpvStorageClassInput, vector);
      module.decorate(variable, SpvDecorationBuiltIn, switch (b) {
        case GLOBAL_ID -> SpvBuiltInGlobalInvocationId;
        case LOCAL_ID -> SpvBuiltInLocalInvocationId;
        case WORKGROUP_ID -> SpvBuiltInWorkgroupId;
        case NUM_WORKGROUPS -> SpvBuiltInNumWorkgroups;
      });
      module.name(variable, b.intrinsic());
      return variable;
    });
  }

  int globalVariable(int storageClass, int pointee) {
    int variable = module.id();
    module.globals.op(SpvOpVariable, module.typePointer(storageClass, pointee), variable, storageClass);
    return variable;
  }

  private void declareLocal(Local local) {
    int variable = temporary(type(local.type()));
    module.name(variable, local.name());
    localVariables.put(local, variable);
  }

  /** A new Function-storage variable of {@code type}, declared in the entry block. */
  int temporary(int type) {
    int variable = module.id();
    variables.op(SpvOpVariable, module.typePointer(SpvStorageClassFunction, type), variable, SpvStorageClassFunction);
    return variable;
  }

  private int type(PrimType type) {
    return switch (type) {
      case BOOLEAN -> module.typeBool();
      case INT -> module.typeInt();
      case LONG -> module.typeLong();
      case FLOAT -> module.typeFloat();
      case DOUBLE -> module.typeDouble();
    };
  }

  /** The value of {@code expression}, emitted here. */
  int valueOf(Expr expression) {
    return value(expression);
  }

  int typeOf(PrimType type) {
    return type(type);
  }

  /** The constant {@code value} of a numeric type. */
  int constant(PrimType type, long value) {
    return switch (type) {
      case INT -> module.constantInt((int) value);
      case LONG -> module.constantLong(value);
      case FLOAT -> module.constantFloat(value);
      case DOUBLE -> module.constantDouble(value);
      case BOOLEAN -> module.constantBool(value != 0);
    };
  }

  int zero(PrimType type) {
    return constant(type, 0);
  }

  // ---- statements

  private void statements(List<Stmt> statements) {
    for (Stmt statement : statements) {
      statement(statement);
    }
  }

  private void statement(Stmt statement) {
    switch (statement) {
      case Stmt.Assign assign -> code.op(SpvOpStore, localVariables.get(assign.local()), value(assign.value()));
      case Stmt.Store store -> {
        int index = value(store.index());
        int value = value(store.value());
        if (program.boundsChecks()) {
          ifElse(inBounds(store.array().name(), index),
              () -> store(element(store.array().name(), index), value),
              () -> indexFault(store.array().name(), index, store.site().line()));
        } else {
          store(element(store.array().name(), index), value);
        }
      }
      case Stmt.Atomic atomic -> atomic(atomic);
      case Stmt.DeclareShared declared -> {} // workgroup memory is declared with the module's globals
      case Stmt.VectorLoad load -> vectors.load(load, localVariables::get);
      case Stmt.VectorStore store -> vectors.store(store, this::value);
      case Stmt.ClearArray clear -> {
        ArrayVariable array = arrays.get(clear.array().name());
        int type = module.type(SpvOpTypeArray, type(array.element()), module.constantUint(array.length()));
        store(array.variable(), module.constantNull(type));
      }
      case Stmt.Barrier ignored -> code.op(SpvOpControlBarrier, module.constantUint(SpvScopeWorkgroup),
          module.constantUint(SpvScopeWorkgroup), module.constantUint(SpvMemorySemanticsAcquireReleaseMask
              | SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsWorkgroupMemoryMask));
      case Stmt.If branch -> ifStatement(branch);
      case Stmt.Loop loop -> loop(loop);
      case Stmt.Switch choice -> switchStatement(choice);
      case Stmt.Break ignored -> {
        if (open) { // a break the lowering adds after a case rule that does not complete
          LoopTargets target = loops.getFirst();
          target.broke = true;
          terminate(SpvOpBranch, target.merge);
        }
      }
      case Stmt.Continue ignored -> {
        LoopTargets loop = loops.stream().filter(target -> target.next != 0).findFirst().orElseThrow();
        loop.continued = true;
        terminate(SpvOpBranch, loop.next);
      }
      case Stmt.Return ignored -> terminate(SpvOpReturn);
    }
  }

  private void ifStatement(Stmt.If branch) {
    int condition = value(branch.condition());
    int then = module.id();
    int merge = module.id();
    boolean hasElse = !branch.otherwise().isEmpty();
    int otherwise = hasElse ? module.id() : merge;
    code.op(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    terminate(SpvOpBranchConditional, condition, then, otherwise);
    label(then);
    statements(branch.then());
    boolean reachesMerge = !hasElse || open;
    branchIfOpen(merge);
    if (hasElse) {
      label(otherwise);
      statements(branch.otherwise());
      reachesMerge |= open;
      branchIfOpen(merge);
    }
    mergeBlock(merge, reachesMerge);
  }

  /**
   * OpSwitch over the cases in source order; a case that ends open falls through to the next one,
   * which SPIR-V allows when the cases are laid out in that order.
   */
  private void switchStatement(Stmt.Switch choice) {
    int selector = value(choice.selector());
    int merge = module.id();
    int[] labels = new int[choice.cases().size()];
    int defaultLabel = merge;
    List<Integer> targets = new java.util.ArrayList<>();
    for (int i = 0; i < labels.length; i++) {
      Stmt.Case branch = choice.cases().get(i);
      labels[i] = module.id();
      if (branch.isDefault()) {
        defaultLabel = labels[i];
      }
      for (int value : branch.labels()) {
        targets.add(value);
        targets.add(labels[i]);
      }
    }
    code.op(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    int[] operands = new int[2 + targets.size()];
    operands[0] = selector;
    operands[1] = defaultLabel;
    for (int i = 0; i < targets.size(); i++) {
      operands[2 + i] = targets.get(i);
    }
    terminate(SpvOpSwitch, operands);
    LoopTargets target = new LoopTargets(merge, 0);
    loops.push(target);
    boolean reachesMerge = defaultLabel == merge;
    for (int i = 0; i < labels.length; i++) {
      label(labels[i]);
      statements(choice.cases().get(i).body());
      if (i == labels.length - 1) {
        reachesMerge |= open;
      }
      branchIfOpen(i + 1 < labels.length ? labels[i + 1] : merge);
    }
    loops.pop();
    mergeBlock(merge, reachesMerge || target.broke);
  }

  /**
   * header: OpLoopMerge, then the test (first or last) and the body; the continue target runs the
   * update and goes back to the header.
   */
  private void loop(Stmt.Loop loop) {
    int header = module.id();
    int body = module.id();
    int next = module.id();
    int merge = module.id();
    boolean endless = loop.condition() instanceof Expr.BoolConst(boolean always) && always;
    branchIfOpen(header);
    label(header);
    code.op(SpvOpLoopMerge, merge, next, SpvLoopControlMaskNone);
    if (loop.testFirst() && !endless) {
      int test = module.id();
      terminate(SpvOpBranch, test);
      label(test);
      terminate(SpvOpBranchConditional, value(loop.condition()), body, merge);
    } else {
      terminate(SpvOpBranch, body);
    }
    label(body);
    LoopTargets targets = new LoopTargets(merge, next);
    loops.push(targets);
    statements(loop.body());
    loops.pop();
    boolean nextReached = open || targets.continued;
    branchIfOpen(next);
    label(next);
    statements(loop.update());
    if (loop.testFirst() || endless) {
      terminate(SpvOpBranch, header);
    } else {
      terminate(SpvOpBranchConditional, value(loop.condition()), header, merge);
    }
    boolean exits = targets.broke || (!endless && (loop.testFirst() || nextReached));
    mergeBlock(merge, exits);
  }

  /** Opens a merge block; one that no branch reaches holds only OpUnreachable. */
  private void mergeBlock(int merge, boolean reached) {
    label(merge);
    if (!reached) {
      terminate(SpvOpUnreachable);
    }
  }

  // ---- expressions

  private int value(Expr expr) {
    return switch (expr) {
      case Expr.IntConst constant -> module.constantInt(constant.value());
      case Expr.FloatConst constant -> module.constantFloat(constant.value());
      case Expr.LongConst constant -> module.constantLong(constant.value());
      case Expr.DoubleConst constant -> module.constantDouble(constant.value());
      case Expr.BoolConst constant -> module.constantBool(constant.value());
      case Expr.LocalGet get -> load(type(get.type()), localVariables.get(get.local()));
      case Expr.ScalarGet get -> load(type(get.type()),
          accessChain(SpvStorageClassPushConstant, type(get.type()), pushConstants, module.constantInt(scalarMembers.get(get.param().name()))));
      case Expr.Load load -> load(load);
      case Expr.Length length -> op(SpvOpBitcast, module.typeInt(),
          bufferLength(arrays.get(length.buffer().name()).variable()));
      case Expr.BuiltinGet get -> op(SpvOpBitcast, module.typeInt(), builtinComponent(get.builtin(), get.axis()));
      case Expr.InLaunch gate -> inLaunch(gate);
      case Expr.LaunchCount count -> op(SpvOpBitcast, module.typeInt(), armCount(count.arm(), count.axis()));
      case Expr.ArmWorkgroups workgroups -> op(SpvOpBitcast, module.typeInt(),
          armWorkgroups(workgroups.arm(), workgroups.axis(), workgroups.size()));
      case Expr.Unary unary -> unary(unary);
      case Expr.Binary binary -> Operators.binary(this, binary.op(), binary.left().type(), value(binary.left()),
          value(binary.right()));
      case Expr.Convert convert -> convert(convert);
      case Expr.Call call -> call(call);
      case Expr.Conditional conditional -> conditional(conditional);
    };
  }

  private int call(Expr.Call call) {
    int[] args = new int[call.arguments().size()];
    for (int i = 0; i < args.length; i++) {
      Expr argument = call.arguments().get(i);
      boolean lane = i == 1 && call.function() == Intrinsic.SUBGROUP_BROADCAST;
      // SPIR-V 1.3 wants the broadcast lane as an unsigned constant; the lowering made it constant
      args[i] = lane ? module.constantUint(((Expr.IntConst) argument).value()) : value(argument);
    }
    return Calls.emit(this, call.function(), args, call.arguments().isEmpty() ? null : call.arguments().getFirst().type());
  }

  /** A scalar uint built-in of the subgroup family, as an int. */
  int subgroupBuiltin(int builtIn) {
    module.capability(SpvCapabilityGroupNonUniform);
    int variable = scalarBuiltins.computeIfAbsent(builtIn, b -> {
      int declared = globalVariable(SpvStorageClassInput, module.typeUint());
      module.decorate(declared, SpvDecorationBuiltIn, b);
      return declared;
    });
    return op(SpvOpBitcast, module.typeInt(), load(module.typeUint(), variable));
  }

  private int unary(Expr.Unary unary) {
    int operand = value(unary.operand());
    int type = type(unary.type());
    return switch (unary.op()) {
      case NEG -> unary.type().isFloating() ? exactOp(SpvOpFNegate, type, operand) : op(SpvOpSNegate, type, operand);
      case COMPLEMENT -> op(SpvOpNot, type, operand);
      case NOT -> op(SpvOpLogicalNot, type, operand);
    };
  }

  /** A conversion between numeric types with Java's rules (JLS 5.1.2, 5.1.3). */
  private int convert(Expr.Convert convert) {
    int value = value(convert.value());
    PrimType from = convert.value().type();
    PrimType to = convert.type();
    if (from == PrimType.BOOLEAN || to == PrimType.BOOLEAN) {
      throw new IllegalStateException("no conversion from " + from + " to " + to);
    }
    if (from.isFloating() && to.isFloating()) {
      return exactOp(SpvOpFConvert, type(to), value);
    }
    if (to.isFloating()) {
      return exactOp(SpvOpConvertSToF, type(to), value);
    }
    if (from.isFloating()) {
      return floatToInteger(value, from, to);
    }
    return op(SpvOpSConvert, type(to), value); // sign-extends, or keeps the low bits
  }

  /**
   * Java's float or double to int or long: truncation, saturating at the target's range, NaN to 0
   * (JLS 5.1.3).
   */
  int floatToInteger(int value, PrimType from, PrimType to) {
    int target = type(to);
    int bool = module.typeBool();
    int bits = to == PrimType.LONG ? 63 : 31;
    int limit = from == PrimType.DOUBLE ? module.constantDouble(Math.scalb(1.0, bits))
        : module.constantFloat(Math.scalb(1f, bits));
    int negativeLimit = from == PrimType.DOUBLE ? module.constantDouble(-Math.scalb(1.0, bits))
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

  /** Evaluates only the chosen side, as Java does, and joins the two with OpPhi. */
  private int conditional(Expr.Conditional conditional) {
    int condition = value(conditional.condition());
    int then = module.id();
    int otherwise = module.id();
    int merge = module.id();
    code.op(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    terminate(SpvOpBranchConditional, condition, then, otherwise);
    label(then);
    int thenValue = value(conditional.then());
    int thenEnd = currentLabel;
    terminate(SpvOpBranch, merge);
    label(otherwise);
    int otherwiseValue = value(conditional.otherwise());
    int otherwiseEnd = currentLabel;
    terminate(SpvOpBranch, merge);
    label(merge);
    return op(SpvOpPhi, type(conditional.type()), thenValue, thenEnd, otherwiseValue, otherwiseEnd);
  }

  /**
   * A built-in's component as a uint. Along x a launch may be split into dispatches (see
   * {@code KernelSpec}), so there the ids count from the launch's first workgroup and the number of
   * workgroups is the launch's.
   */
  /** An atomic update; with bounds checks an index out of bounds updates nothing and yields 0. */
  private void atomic(Stmt.Atomic atomic) {
    int index = value(atomic.index());
    int value = value(atomic.value());
    int expected = atomic.expected() == null ? 0 : value(atomic.expected());
    Runnable update = () -> {
      int previous = atomicUpdate(atomic, element(atomic.array().name(), index), value, expected);
      if (atomic.result() != null) {
        store(localVariables.get(atomic.result()), previous);
      }
    };
    if (!program.boundsChecks()) {
      update.run();
      return;
    }
    ifElse(inBounds(atomic.array().name(), index), update, () -> {
      indexFault(atomic.array().name(), index, atomic.site().line());
      if (atomic.result() != null) {
        store(localVariables.get(atomic.result()), module.constantInt(0));
      }
    });
  }

  private int atomicUpdate(Stmt.Atomic atomic, int pointer, int value, int expected) {
    int scope = module.constantUint(arrays.get(atomic.array().name()).storageClass() == SpvStorageClassWorkgroup
        ? SpvScopeWorkgroup
        : SpvScopeDevice);
    int relaxed = module.constantUint(SpvMemorySemanticsMaskNone);
    int type = module.typeInt();
    return switch (atomic.op()) {
      case ADD -> op(SpvOpAtomicIAdd, type, pointer, scope, relaxed, value);
      case MIN -> op(SpvOpAtomicSMin, type, pointer, scope, relaxed, value);
      case MAX -> op(SpvOpAtomicSMax, type, pointer, scope, relaxed, value);
      case AND -> op(SpvOpAtomicAnd, type, pointer, scope, relaxed, value);
      case OR -> op(SpvOpAtomicOr, type, pointer, scope, relaxed, value);
      case XOR -> op(SpvOpAtomicXor, type, pointer, scope, relaxed, value);
      case EXCHANGE -> op(SpvOpAtomicExchange, type, pointer, scope, relaxed, value);
      case COMPARE_EXCHANGE -> op(SpvOpAtomicCompareExchange, type, pointer, scope, relaxed, relaxed, value, expected);
    };
  }

  /** {@code buffer[index]}; with bounds checks an index out of bounds reads 0 and is reported. */
  private int load(Expr.Load load) {
    int type = type(load.type());
    int index = value(load.index());
    if (!program.boundsChecks()) {
      return load(type, element(load.array().name(), index));
    }
    int check = inBounds(load.array().name(), index);
    int inBounds = module.id();
    int outOfBounds = module.id();
    int merge = module.id();
    code.op(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    terminate(SpvOpBranchConditional, check, inBounds, outOfBounds);
    label(inBounds);
    int loaded = load(type, element(load.array().name(), index));
    int loadedEnd = currentLabel;
    terminate(SpvOpBranch, merge);
    label(outOfBounds);
    indexFault(load.array().name(), index, load.site().line());
    int faultEnd = currentLabel;
    terminate(SpvOpBranch, merge);
    label(merge);
    return op(SpvOpPhi, type, loaded, loadedEnd, zero(load.type()), faultEnd);
  }

  /** {@code 0 <= index < array.length}, as one unsigned comparison. */
  private int inBounds(String array, int index) {
    ArrayVariable target = arrays.get(array);
    int length = target.length() < 0
        ? bufferLength(target.variable())
        : module.constantUint(target.length());
    return op(SpvOpULessThan, module.typeBool(), op(SpvOpBitcast, module.typeUint(), index), length);
  }

  /**
   * A buffer's length in elements, as a uint: one less than its runtime array's, since the runtime
   * binds one element more than the array holds (an empty array still needs a binding; see
   * {@link LaunchAbi}).
   */
  private int bufferLength(int variable) {
    return op(SpvOpISub, module.typeUint(), op(SpvOpArrayLength, module.typeUint(), variable, 0), module.constantUint(1));
  }

  private void indexFault(String array, int index, int line) {
    faults.record(Faults.INDEX, arrays.get(array).faultTag(), index, line);
  }

  /** Reports an integer division by zero where {@code isZero} (the caller goes on with a harmless divisor). */
  void divisionByZero(int isZero) {
    when(isZero, () -> faults.record(Faults.DIVISION_BY_ZERO, 0, module.constantInt(0), 0));
  }

  private int builtinComponent(Builtin builtin, int axis) {
    int uint = module.typeUint();
    if (axis == 0 && builtin == Builtin.NUM_WORKGROUPS) {
      return armWorkgroups(0, 0, program.workgroup().x());
    }
    int vector = load(module.type(SpvOpTypeVector, uint, 3), builtinVariable(builtin));
    int component = op(SpvOpCompositeExtract, uint, vector, axis);
    return switch (axis == 0 ? builtin : Builtin.LOCAL_ID) {
      case GLOBAL_ID -> op(SpvOpIAdd, uint, component,
          op(SpvOpIMul, uint, launchConstant(LaunchAbi.FIRST_GROUP_MEMBER), module.constantUint(program.workgroup().x())));
      case WORKGROUP_ID -> op(SpvOpIAdd, uint, component, launchConstant(LaunchAbi.FIRST_GROUP_MEMBER));
      case LOCAL_ID, NUM_WORKGROUPS -> component;
    };
  }

  /** A member of the launch geometry at the start of the push-constant block. */
  private int launchConstant(int member) {
    return load(module.typeUint(),
        accessChain(SpvStorageClassPushConstant, module.typeUint(), pushConstants, module.constantInt(member)));
  }

  /** A pointer to {@code array[index]}. */
  private int element(String array, int index) {
    ArrayVariable target = arrays.get(array);
    int element = type(target.element());
    return target.storageClass() == SpvStorageClassStorageBuffer
        ? accessChain(SpvStorageClassStorageBuffer, element, target.variable(), module.constantInt(0), index)
        : accessChain(target.storageClass(), element, target.variable(), index);
  }

  private int accessChain(int storageClass, int pointee, int base, int... indices) {
    int[] operands = new int[indices.length + 1];
    operands[0] = base;
    System.arraycopy(indices, 0, operands, 1, indices.length);
    return op(SpvOpAccessChain, module.typePointer(storageClass, pointee), operands);
  }

  int load(int type, int pointer) {
    return op(SpvOpLoad, type, pointer);
  }

  void store(int pointer, int value) {
    code.op(SpvOpStore, pointer, value);
  }

  /** A GLSL.std.450 instruction. */
  int glsl(int instruction, int resultType, int... operands) {
    return op(SpvOpExtInst, resultType, SpirvModule.prepend(module.glsl(), SpirvModule.prepend(instruction, operands)));
  }

  /** Starts a structured loop: the caller emits the test and body, then calls {@link #closeLoop}. */
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
    int bodyIf(SpirvWriter writer, int condition) {
      int body = writer.module.id();
      writer.terminate(SpvOpBranchConditional, condition, body, merge);
      writer.label(body);
      return body;
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

  // ---- instruction helpers, also used by Operators

  /** Emits {@code opcode resultType result operands...} and returns the result id. */
  int op(int opcode, int resultType, int... operands) {
    int result = module.id();
    code.op(opcode, SpirvModule.prepend(resultType, SpirvModule.prepend(result, operands)));
    return result;
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

  SpirvModule module() {
    return module;
  }

  void label(int id) {
    code.op(SpvOpLabel, id);
    currentLabel = id;
    open = true;
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
}
