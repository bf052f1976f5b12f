package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.*;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The statements and expressions of a twin method: the kernel language's IR as JVM instructions
 * with Java's semantics, on the locals and arrays of its {@link TwinFrame}.
 */
final class TwinCode {
  /** Why a program with cooperative matrices has no twin: the CPU backend runs its Java. */
  private final TwinFrame f;

  private final MethodVisitor mv;

  TwinCode(TwinFrame frame) {
    this.f = frame;
    this.mv = frame.mv;
  }

  void statements(List<Stmt> body) {
    body.forEach(this::statement);
  }

  private void statement(Stmt statement) {
    switch (statement) {
      case Stmt.Matrix matrix -> throw new Unsupported(Unsupported.MATRICES);
      case Stmt.Copy copy -> {
        int[] source = f.keep(copy.source(), () -> value(copy.sourceIndex()));
        int[] target = f.keep(copy.target(), () -> value(copy.targetIndex()));
        f.atCopy(copy.source(), copy.target(), copy.site().line(), source);
        f.pushKept(source);
        f.pushKept(target);
        push(mv, copy.length());
        mv.visitMethodInsn(
            INVOKESTATIC,
            "java/lang/System",
            "arraycopy",
            "(Ljava/lang/Object;ILjava/lang/Object;II)V",
            false);
      }
      case Stmt.Assign assign when f.values.isNoOp(assign) -> {}
      case Stmt.Assign assign -> assign(assign.local(), assign.value());
      case Stmt.Store store -> {
        int[] kept = f.keep(store.array(), () -> value(store.index()));
        int stored = kept(store.value());
        f.at(store.array(), store.site().line(), kept);
        f.pushKept(kept);
        mv.visitVarInsn(load(store.value().type()), stored);
        mv.visitInsn(arrayStore(store.array().element()));
      }
      case Stmt.Atomic atomic -> {
        if (atomic.result() != null) {
          f.beginLocal(atomic.result());
        }
        int[] kept = f.keep(atomic.array(), () -> value(atomic.index()));
        int expected = atomic.expected() == null ? -1 : kept(atomic.expected());
        int operand = kept(atomic.value());
        f.at(atomic.array(), atomic.site().line(), kept);
        f.pushKept(kept);
        if (expected >= 0) {
          mv.visitVarInsn(load(atomic.expected().type()), expected);
        }
        mv.visitVarInsn(load(atomic.value().type()), operand);
        TwinCalls.atomic(mv, atomic.op(), atomic.array().element());
        if (atomic.result() != null) {
          f.endStore(atomic.result());
        } else {
          pop(mv, atomic.array().element());
        }
      }
      case Stmt.DeclareShared d -> {}
      case Stmt.ClearArray clear -> {
        f.array(clear.array());
        zero(mv, clear.array().element());
        fill(mv, clear.array().element());
      }
      case Stmt.If branch -> {
        Label otherwise = new Label();
        Label end = new Label();
        value(branch.condition());
        mv.visitJumpInsn(IFEQ, otherwise);
        f.enterArm(branch.condition());
        statements(branch.then());
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(otherwise);
        statements(branch.otherwise());
        mv.visitLabel(end);
      }
      case Stmt.Loop loop -> {
        Label top = new Label();
        Label next = new Label();
        Label exit = new Label();
        mv.visitLabel(top);
        if (loop.testFirst()) {
          value(loop.condition());
          mv.visitJumpInsn(IFEQ, exit);
        }
        f.targets.addLast(new TwinFrame.Target(loop.label(), true, exit, next, false));
        statements(loop.body());
        mv.visitLabel(next);
        statements(loop.update());
        f.targets.removeLast();
        if (!loop.testFirst()) {
          value(loop.condition());
          mv.visitJumpInsn(IFEQ, exit);
        }
        mv.visitJumpInsn(GOTO, top);
        mv.visitLabel(exit);
      }
      case Stmt.Switch choice -> switchStatement(choice);
      case Stmt.Break leave -> f.jump(f.find(leave.label(), false), false);
      case Stmt.Continue next -> f.jump(f.find(next.label(), true), true);
      case Stmt.Return r -> {
        if (f.cooperative) {
          f.markReturned();
        }
        mv.visitJumpInsn(GOTO, f.current.next);
      }
      case Stmt.Barrier b -> throw new Unsupported("a barrier outside workgroup-level code");
      case Stmt.VectorLoad v -> throw new Unsupported("a vectorized program");
      case Stmt.VectorStore v -> throw new Unsupported("a vectorized program");
      case Stmt.Call call -> throw call.unlinked();
    }
  }

  private void switchStatement(Stmt.Switch choice) {
    value(choice.selector());
    Label exit = new Label();
    Label fallback = exit;
    List<Integer> keys = new ArrayList<>();
    List<Label> keyLabels = new ArrayList<>();
    Label[] bodies = new Label[choice.cases().size()];
    for (int k = 0; k < bodies.length; k++) {
      bodies[k] = new Label();
      Stmt.Case c = choice.cases().get(k);
      if (c.isDefault()) {
        fallback = bodies[k];
      }
      for (int label : c.labels()) {
        keys.add(label);
        keyLabels.add(bodies[k]);
      }
    }
    Integer[] order = new Integer[keys.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Integer.compare(keys.get(a), keys.get(b)));
    int[] sortedKeys = new int[order.length];
    Label[] sortedLabels = new Label[order.length];
    for (int i = 0; i < order.length; i++) {
      sortedKeys[i] = keys.get(order[i]);
      sortedLabels[i] = keyLabels.get(order[i]);
    }
    mv.visitLookupSwitchInsn(fallback, sortedKeys, sortedLabels);
    f.targets.addLast(new TwinFrame.Target(null, false, exit, null, false));
    for (int k = 0; k < bodies.length; k++) {
      mv.visitLabel(bodies[k]);
      statements(choice.cases().get(k).body());
    }
    f.targets.removeLast();
    mv.visitLabel(exit);
  }

  /** Evaluates {@code expression} into a fresh local; returns its slot. */
  private int kept(Expr expression) {
    value(expression);
    int slot = f.slot(expression.type());
    mv.visitVarInsn(store(expression.type()), slot);
    return slot;
  }

  void value(Expr expression) {
    switch (expression) {
      case Expr.IntConst c -> push(mv, c.value());
      case Expr.FloatConst c -> mv.visitLdcInsn(c.value());
      case Expr.LongConst c -> mv.visitLdcInsn(c.value());
      case Expr.DoubleConst c -> mv.visitLdcInsn(c.value());
      case Expr.BoolConst c -> push(mv, c.value() ? 1 : 0);
      case Expr.LocalGet get -> f.loadLocal(get.local());
      case Expr.ScalarGet get ->
          mv.visitVarInsn(load(get.type()), f.scalars.get(get.param().name()));
      case Expr.Load load -> {
        int[] kept = f.keep(load.array(), () -> value(load.index()));
        f.at(load.array(), load.site().line(), kept);
        f.pushKept(kept);
        mv.visitInsn(arrayLoad(load.array().element()));
      }
      case Expr.Checked checked ->
          f.checkedIndex(checked.length(), checked.site().line(), () -> value(checked.index()));
      case Expr.Length length -> {
        f.array(length.buffer());
        mv.visitInsn(ARRAYLENGTH);
      }
      case Expr.BuiltinGet get -> f.ids.load(get.builtin(), get.axis());
      case Expr.InLaunch in -> inLaunch(in);
      case Expr.ArmWorkgroups w -> {
        mv.visitVarInsn(ILOAD, f.counts[w.arm()][w.axis()]);
        push(mv, w.size());
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "ceilDiv", "(II)I", false);
      }
      case Expr.LaunchCount c -> mv.visitVarInsn(ILOAD, f.counts[c.arm()][c.axis()]);
      case Expr.Unary unary -> unary(unary);
      case Expr.Binary binary -> binary(binary);
      case Expr.Call call -> {
        operands(call.arguments());
        PrimType[] types = new PrimType[call.arguments().size()];
        for (int i = 0; i < types.length; i++) {
          types[i] = call.arguments().get(i).type();
        }
        TwinCalls.call(
            mv,
            call.function(),
            types,
            () -> {
              if (f.streaming) {
                f.ids.localIndexStreaming();
              } else {
                mv.visitVarInsn(ILOAD, f.invocation);
              }
            },
            () -> push(mv, f.size[0] * f.size[1] * f.size[2]));
      }
      case Expr.Convert convert -> {
        value(convert.value());
        convert(mv, convert.value().type(), convert.type());
      }
      case Expr.Conditional conditional
          when conditional.condition() instanceof Expr.Call call
              && call.function() == Intrinsic.HALF_CONVERSION_EXACT ->
          value(conditional.then()); // the JDK's conversion: Java's, subnormals and all
      case Expr.Conditional conditional -> {
        Label otherwise = new Label();
        Label end = new Label();
        value(conditional.condition());
        mv.visitJumpInsn(IFEQ, otherwise);
        value(conditional.then());
        mv.visitJumpInsn(GOTO, end);
        mv.visitLabel(otherwise);
        value(conditional.otherwise());
        mv.visitLabel(end);
      }
      case Expr.Let let -> {
        assign(let.local(), let.value());
        value(let.body());
      }
      case Expr.Effect effect -> {
        statements(effect.statements());
        value(effect.value());
      }
    }
  }

  /**
   * {@code local = value}. A local kept per invocation is an element of an array, whose reference
   * and index go on the JVM's stack before the value; a value that runs a loop (a helper's inlined
   * body) is computed into a slot first, so that its loops start on an empty stack ({@link
   * #operands}).
   */
  private void assign(Local local, Expr value) {
    if (f.perInvocation(local) && runsLoop(value)) {
      int slot = kept(value);
      f.beginLocal(local);
      mv.visitVarInsn(load(value.type()), slot);
    } else {
      f.beginLocal(local);
      value(value);
    }
    f.endStore(local);
  }

  /**
   * Pushes {@code operands} in order. Where one after the first runs a loop, each goes into a slot
   * first and then onto the stack: HotSpot compiles a long loop of a method called once (a twin
   * runs a launch's workgroups in one call) only on its stack's replacement, which it refuses where
   * the stack holds values at the loop's head, and the twin would stay interpreted, some 50 times
   * slower (the library's GEMV lanes, {@code row < rows ? lane(...) : 0f} folded in a subgroup).
   */
  private void operands(List<Expr> operands) {
    if (operands.stream().skip(1).noneMatch(TwinCode::runsLoop)) {
      operands.forEach(this::value);
      return;
    }
    int[] slots = operands.stream().mapToInt(this::kept).toArray();
    for (int i = 0; i < slots.length; i++) {
      mv.visitVarInsn(load(operands.get(i).type()), slots[i]);
    }
  }

  /** Whether evaluating {@code expression} runs a loop: statements of a helper's body with one. */
  private static boolean runsLoop(Expr expression) {
    return Walk.anyIn(
        expression,
        e ->
            e instanceof Expr.Effect effect
                && Walk.anyStatement(effect.statements(), s -> s instanceof Stmt.Loop));
  }

  /** Whether the invocation (or its workgroup) lies inside arm {@code arm}'s grid, as 1 or 0. */
  private void inLaunch(Expr.InLaunch in) {
    Label outside = new Label();
    Label end = new Label();
    for (int axis = 0; axis < 3; axis++) {
      if (in.wholeWorkgroups()) {
        f.ids.load(Builtin.WORKGROUP_ID, axis);
        mv.visitVarInsn(ILOAD, f.counts[in.arm()][axis]);
        push(mv, f.size[axis]);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "ceilDiv", "(II)I", false);
      } else {
        f.ids.load(Builtin.GLOBAL_ID, axis);
        mv.visitVarInsn(ILOAD, f.counts[in.arm()][axis]);
      }
      mv.visitJumpInsn(IF_ICMPGE, outside);
    }
    push(mv, 1);
    mv.visitJumpInsn(GOTO, end);
    mv.visitLabel(outside);
    push(mv, 0);
    mv.visitLabel(end);
  }

  private void unary(Expr.Unary unary) {
    value(unary.operand());
    PrimType type = unary.operand().type();
    switch (unary.op()) {
      case NEG ->
          mv.visitInsn(
              switch (kind(type)) {
                case LONG -> LNEG;
                case FLOAT -> FNEG;
                case DOUBLE -> DNEG;
                default -> INEG;
              });
      case COMPLEMENT -> {
        if (kind(type) == PrimType.LONG) {
          mv.visitLdcInsn(-1L);
          mv.visitInsn(LXOR);
        } else {
          push(mv, -1);
          mv.visitInsn(IXOR);
        }
      }
      case NOT -> {
        push(mv, 1);
        mv.visitInsn(IXOR);
      }
    }
  }

  private void binary(Expr.Binary binary) {
    PrimType type = kind(binary.left().type());
    operands(List.of(binary.left(), binary.right()));
    BinaryOp op = binary.op();
    if (op.isComparison()) {
      compare(mv, op, type);
      return;
    }
    int base =
        switch (op) {
          case ADD -> IADD;
          case SUB -> ISUB;
          case MUL -> IMUL;
          case DIV -> IDIV;
          case REM -> IREM;
          case SHL -> ISHL;
          case SHR -> ISHR;
          case USHR -> IUSHR;
          case AND -> IAND;
          case OR -> IOR;
          case XOR -> IXOR;
          default -> throw new IllegalStateException(op.name());
        };
    // IADD, LADD, FADD, DADD are consecutive, as are the other arithmetic families; shifts and
    // bitwise operations come in int and long only
    int offset =
        switch (type) {
          case LONG -> 1;
          case FLOAT -> 2;
          case DOUBLE -> 3;
          default -> 0;
        };
    mv.visitInsn(base + offset);
  }
}
