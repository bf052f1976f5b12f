package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.analysis.IndexBounds;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Emits the value of an expression, with Java's semantics: exact conversions, short-circuit
 * conditionals that evaluate only the chosen side, operators and library calls through {@link
 * Operators} and {@link Calls}.
 */
final class ExpressionWriter {
  private final FunctionBuilder fn;
  private final SpirvModule module;
  private final LaunchValues launch;
  private final MemoryAccess memory;
  private final Map<Local, Integer> locals;

  /** Writes the statements of an {@link Expr.Effect}. */
  private final Consumer<List<Stmt>> statements;

  private final IndexBounds bounds;

  ExpressionWriter(
      FunctionBuilder fn,
      LaunchValues launch,
      MemoryAccess memory,
      Map<Local, Integer> locals,
      Consumer<List<Stmt>> statements,
      IndexBounds bounds) {
    this.statements = statements;
    this.bounds = bounds;
    this.fn = fn;
    this.module = fn.module();
    this.launch = launch;
    this.memory = memory;
    this.locals = locals;
  }

  int value(Expr expr) {
    memory
        .faults()
        .at(
            switch (expr) { // the arm of a fused group whose faults its checks record
              case Expr.Load load -> load.site();
              case Expr.Checked checked -> checked.site();
              case Expr.Binary binary -> binary.site();
              case Expr.Call call -> call.site();
              default -> null;
            });
    return switch (expr) {
      case Expr.IntConst constant -> module.constantInt(constant.value());
      case Expr.FloatConst constant -> module.constantFloat(constant.value());
      case Expr.LongConst constant -> module.constantLong(constant.value());
      case Expr.DoubleConst constant -> module.constantDouble(constant.value());
      case Expr.BoolConst constant -> module.constantBool(constant.value());
      case Expr.LocalGet get -> fn.load(fn.typeOf(get.type()), locals.get(get.local()));
      case Expr.ScalarGet get -> launch.scalar(get.param());
      case Expr.Load load -> load(load);
      case Expr.Checked checked ->
          memory.checked(value(checked.index()), checked.length(), checked.site().line());
      case Expr.Length length -> memory.length(length.buffer());
      case Expr.BuiltinGet get ->
          fn.op(SpvOpBitcast, module.typeInt(), launch.builtin(get.builtin(), get.axis()));
      case Expr.InLaunch gate -> launch.inLaunch(gate);
      case Expr.LaunchCount count ->
          fn.op(SpvOpBitcast, module.typeInt(), launch.armCount(count.arm(), count.axis()));
      case Expr.ArmWorkgroups workgroups ->
          fn.op(
              SpvOpBitcast,
              module.typeInt(),
              launch.armWorkgroups(workgroups.arm(), workgroups.axis(), workgroups.size()));
      case Expr.Unary unary -> unary(unary);
      case Expr.Binary binary ->
          Operators.binary(
              fn,
              memory,
              binary.op(),
              binary.left().type(),
              value(binary.left()),
              value(binary.right()),
              binary.site() == null ? 0 : binary.site().line());
      case Expr.Convert convert -> convert(convert);
      case Expr.Call call -> call(call);
      case Expr.Conditional conditional -> conditional(conditional);
      case Expr.Let let -> let(let);
      case Expr.Effect effect -> {
        statements.accept(effect.statements());
        yield value(effect.value());
      }
    };
  }

  private int let(Expr.Let let) {
    int variable = fn.temporary(fn.typeOf(let.value().type()));
    fn.store(variable, value(let.value()));
    locals.put(let.local(), variable);
    return value(let.body());
  }

  private int load(Expr.Load load) {
    fn.typeOf(load.type()); // declared before the index, as the module's golden files have it
    int index = value(load.index());
    return memory.load(
        load.array().name(), load.type(), index, load.site().line(), bounds.bound(load));
  }

  private int call(Expr.Call call) {
    int[] args = new int[call.arguments().size()];
    for (int i = 0; i < args.length; i++) {
      Expr argument = call.arguments().get(i);
      boolean constant =
          i == 1
              && (call.function() == Intrinsic.SUBGROUP_BROADCAST || call.function().isClustered());
      // SPIR-V 1.3 wants the broadcast lane and the cluster size as unsigned constants; the
      // lowering made them constant
      args[i] =
          constant ? module.constantUint(((Expr.IntConst) argument).value()) : value(argument);
    }
    PrimType first = call.arguments().isEmpty() ? null : call.arguments().getFirst().type();
    if (call.function().mayFault()) {
      return CheckedCalls.emit(fn, memory, call.function(), first, args);
    }
    return Calls.emit(fn, launch, call.function(), args, first);
  }

  private int unary(Expr.Unary unary) {
    int operand = value(unary.operand());
    int type = fn.typeOf(unary.type());
    return switch (unary.op()) {
      case NEG ->
          unary.type().isFloating()
              ? fn.exactOp(SpvOpFNegate, type, operand)
              : fn.op(SpvOpSNegate, type, operand);
      case COMPLEMENT -> fn.op(SpvOpNot, type, operand);
      case NOT -> fn.op(SpvOpLogicalNot, type, operand);
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
      return fn.exactOp(SpvOpFConvert, fn.typeOf(to), value);
    }
    if (to.isFloating()) {
      return fn.exactOp(SpvOpConvertSToF, fn.typeOf(to), value);
    }
    if (to
        .isNarrow()) { // to int first (a float saturates, a long keeps its low bits), then the low
      // 8 or 16 bits
      int asInt =
          from.isFloating()
              ? fn.floatToInteger(value, from, PrimType.INT)
              : from == PrimType.LONG ? fn.op(SpvOpSConvert, module.typeInt(), value) : value;
      return fn.narrow(asInt, to);
    }
    if (from.isFloating()) {
      return fn.floatToInteger(value, from, to);
    }
    if (fn.typeOf(from) == fn.typeOf(to)) {
      return value; // a narrow value is already the int it widens to
    }
    return fn.op(SpvOpSConvert, fn.typeOf(to), value); // sign-extends, or keeps the low bits
  }

  /** Evaluates only the chosen side, as Java does, and joins the two with OpPhi. */
  private int conditional(Expr.Conditional conditional) {
    int condition = value(conditional.condition());
    int then = module.id();
    int otherwise = module.id();
    int merge = module.id();
    fn.instruction(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    fn.terminate(SpvOpBranchConditional, condition, then, otherwise);
    fn.label(then);
    int thenValue = value(conditional.then());
    int thenEnd = fn.currentLabel();
    fn.terminate(SpvOpBranch, merge);
    fn.label(otherwise);
    int otherwiseValue = value(conditional.otherwise());
    int otherwiseEnd = fn.currentLabel();
    fn.terminate(SpvOpBranch, merge);
    fn.label(merge);
    return fn.op(
        SpvOpPhi, fn.typeOf(conditional.type()), thenValue, thenEnd, otherwiseValue, otherwiseEnd);
  }
}
