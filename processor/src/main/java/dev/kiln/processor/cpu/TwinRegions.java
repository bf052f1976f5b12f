package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.*;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * The body of a twin that runs workgroup by workgroup ({@link TwinMethod}): regions between
 * barriers as work-item loops, statements around barriers at workgroup level, and statements around
 * subgroup operations subgroup by subgroup; and one invocation's code with its fault kept.
 */
final class TwinRegions {
  private final TwinFrame f;
  private final TwinCode code;
  private final MethodVisitor mv;

  TwinRegions(TwinFrame f, TwinCode code) {
    this.f = f;
    this.code = code;
    this.mv = f.mv;
  }

  /**
   * Emits {@code body} as one invocation's code: an exception it throws is kept (the first one, or
   * in a fused group the first one of a lower arm than the one kept) and the invocation ends there,
   * as a GPU invocation's fault ends nothing but its own work and is reported after the launch;
   * later invocations run on. With barriers the invocation counts as returned.
   */
  void invocationBody(Runnable body) {
    Label start = new Label();
    Label end = new Label();
    Label handler = new Label();
    Label recorded = new Label();
    mv.visitTryCatchBlock(start, end, handler, "java/lang/RuntimeException");
    mv.visitLabel(start);
    body.run();
    mv.visitLabel(end);
    mv.visitJumpInsn(GOTO, f.current.next);
    mv.visitLabel(handler);
    mv.visitVarInsn(ASTORE, f.thrown);
    Label first = new Label();
    mv.visitVarInsn(ALOAD, f.fault);
    mv.visitJumpInsn(IFNULL, first);
    mv.visitVarInsn(ILOAD, f.arm);
    mv.visitVarInsn(ILOAD, f.faultArm);
    mv.visitJumpInsn(IF_ICMPGE, recorded);
    mv.visitLabel(first);
    mv.visitVarInsn(ILOAD, f.arm);
    mv.visitVarInsn(ISTORE, f.faultArm);
    mv.visitVarInsn(ALOAD, f.thrown);
    mv.visitVarInsn(ASTORE, f.fault);
    mv.visitVarInsn(ILOAD, f.site);
    mv.visitVarInsn(ISTORE, f.faultSite);
    mv.visitVarInsn(ALOAD, f.accessArray);
    mv.visitVarInsn(ASTORE, f.faultArray);
    mv.visitVarInsn(ILOAD, f.accessIndex);
    mv.visitVarInsn(ISTORE, f.faultIndex);
    mv.visitLabel(recorded);
    if (f.cooperative) {
      f.markReturned();
    }
    mv.visitJumpInsn(GOTO, f.current.next);
  }

  /** Statements at workgroup level: runs of statements without barriers become work-item loops. */
  void region(List<Stmt> body) {
    List<Stmt> run = new ArrayList<>();
    for (Stmt statement : body) {
      if (f.values.isNoOp(statement)) {
        continue;
      }
      if (f.values.runsOnce(
          statement)) { // a workgroup value: written once, between the work-item loops
        items(run);
        run = new ArrayList<>();
        code.statements(List.of(statement));
        continue;
      }
      if (!WorkgroupValues.hasBarrier(statement)) {
        run.add(statement);
        continue;
      }
      items(run);
      run = new ArrayList<>();
      switch (statement) {
        case Stmt.Barrier b -> {}
        case Stmt.If branch -> levelIf(branch, false);
        case Stmt.Loop loop -> levelLoop(loop, false);
        default ->
            throw new Unsupported("a barrier inside " + statement.getClass().getSimpleName());
      }
    }
    items(run);
  }

  /**
   * A run without barriers: work-item loops, or with subgroup operations one subgroup after the
   * other.
   */
  private void items(List<Stmt> run) {
    if (SubgroupStatements.hasExchange(run)) {
      subgroupLoop(run);
    } else {
      workItems(run);
    }
  }

  /** {@code run} for each subgroup in turn: lanes {@code rangeFirst .. rangeEnd-1}. */
  private void subgroupLoop(List<Stmt> run) {
    countedLoop(
        mv,
        f.rangeFirst,
        () -> {
          push(mv, 0);
          mv.visitVarInsn(ISTORE, f.rangeFirst);
        },
        () -> push(mv, invocations()),
        null,
        () -> {
          mv.visitVarInsn(ILOAD, f.rangeFirst);
          mv.visitVarInsn(ILOAD, TwinFrame.SUBGROUP_SIZE);
          mv.visitInsn(IADD);
          push(mv, invocations());
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
          mv.visitVarInsn(ISTORE, f.rangeEnd);
          int outside = f.outsideSubgroups;
          f.outsideSubgroups = f.targets.size();
          laneRegion(run);
          f.outsideSubgroups = outside;
        },
        () -> {
          mv.visitVarInsn(ILOAD, f.rangeFirst);
          mv.visitVarInsn(ILOAD, TwinFrame.SUBGROUP_SIZE);
          mv.visitInsn(IADD);
          mv.visitVarInsn(ISTORE, f.rangeFirst);
        });
    wholeWorkgroup();
  }

  /**
   * Statements at subgroup level: each subgroup operation once for the subgroup's lanes, an {@code
   * if} or loop that holds one with the condition its lanes agree on, the rest as work-item loops
   * over the lanes.
   */
  private void laneRegion(List<Stmt> body) {
    List<Stmt> run = new ArrayList<>();
    for (Stmt statement : body) {
      if (!SubgroupStatements.hasExchange(List.of(statement))) {
        run.add(statement);
        continue;
      }
      workItems(run);
      run = new ArrayList<>();
      switch (statement) {
        case Stmt.Assign operation when TwinSubgroups.isOperation(operation) ->
            TwinSubgroups.emit(f, operation, f.rangeFirst, f.rangeEnd);
        case Stmt.If branch -> levelIf(branch, true);
        case Stmt.Loop loop -> levelLoop(loop, true);
        default ->
            throw new Unsupported(
                "a subgroup operation inside " + statement.getClass().getSimpleName());
      }
    }
    workItems(run);
  }

  /** Work-item loops run the whole workgroup: invocations {@code 0 .. N-1}. */
  void wholeWorkgroup() {
    push(mv, 0);
    mv.visitVarInsn(ISTORE, f.rangeFirst);
    push(mv, invocations());
    mv.visitVarInsn(ISTORE, f.rangeEnd);
  }

  /**
   * Marks the invocations past the dispatch as done: they do not run, and are no subgroup's active
   * lanes.
   */
  void markOutsideTheDispatch() {
    Label next = new Label();
    countedLoop(
        mv,
        f.invocation,
        () -> {
          push(mv, 0);
          mv.visitVarInsn(ISTORE, f.invocation);
        },
        () -> push(mv, invocations()),
        next,
        () -> {
          localIds();
          Label outside = new Label();
          for (int axis = 0; axis < 3; axis++) {
            mv.visitVarInsn(ILOAD, f.globalId[axis]);
            mv.visitVarInsn(ILOAD, 2 + axis);
            mv.visitJumpInsn(IF_ICMPGE, outside);
          }
          mv.visitJumpInsn(GOTO, next);
          mv.visitLabel(outside);
          f.markReturned();
        },
        null);
  }

  private int invocations() {
    return f.size[0] * f.size[1] * f.size[2];
  }

  /**
   * An {@code if} that holds barriers ({@code lanes} false) or subgroup operations, run for the
   * workgroup or the subgroup.
   */
  private void levelIf(Stmt.If branch, boolean lanes) {
    conditionOfWorkgroup(branch.condition());
    Label otherwise = new Label();
    Label end = new Label();
    mv.visitVarInsn(ILOAD, f.condition);
    mv.visitJumpInsn(IFEQ, otherwise);
    f.enterArm(branch.condition());
    level(branch.then(), lanes);
    mv.visitJumpInsn(GOTO, end);
    mv.visitLabel(otherwise);
    level(branch.otherwise(), lanes);
    mv.visitLabel(end);
  }

  private void level(List<Stmt> body, boolean lanes) {
    if (lanes) {
      laneRegion(body);
    } else {
      region(body);
    }
  }

  /**
   * A loop that holds barriers ({@code lanes} false) or subgroup operations, run for the workgroup
   * or the subgroup.
   */
  private void levelLoop(Stmt.Loop loop, boolean lanes) {
    Label top = new Label();
    Label next = new Label();
    Label exit = new Label();
    mv.visitLabel(top);
    if (loop.testFirst()) {
      conditionOfWorkgroup(loop.condition());
      mv.visitVarInsn(ILOAD, f.condition);
      mv.visitJumpInsn(IFEQ, exit);
    }
    f.targets.addLast(new TwinFrame.Target(loop.label(), true, exit, next, true));
    level(loop.body(), lanes);
    mv.visitLabel(next);
    level(loop.update(), lanes);
    f.targets.removeLast();
    if (!loop.testFirst()) {
      conditionOfWorkgroup(loop.condition());
      mv.visitVarInsn(ILOAD, f.condition);
      mv.visitJumpInsn(IFEQ, exit);
    }
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(exit);
  }

  /**
   * Every running invocation of the range evaluates {@code expression}; the workgroup or subgroup
   * takes the value, which they must agree on (false where none runs).
   */
  private void conditionOfWorkgroup(Expr expression) {
    if (f.values.pure(expression)) { // the same for every invocation: evaluated once
      code.value(expression);
      mv.visitVarInsn(ISTORE, f.condition);
      return;
    }
    workItems(List.of(new Stmt.If(expression, List.of(), List.of())), true);
  }

  private void workItems(List<Stmt> run) {
    workItems(run, false);
  }

  /**
   * A loop over the workgroup's invocations running {@code run}; with {@code storeCondition}, the
   * run is one {@code if} whose condition each invocation stores to the workgroup's condition.
   */
  private void workItems(List<Stmt> run, boolean storeCondition) {
    if (run.isEmpty() || run.stream().allMatch(s -> s instanceof Stmt.DeclareShared)) {
      return;
    }
    int invocations = invocations();
    TwinFrame.WorkItemLoop loop = new TwinFrame.WorkItemLoop();
    f.current = loop;
    if (storeCondition) {
      push(mv, -1);
      mv.visitVarInsn(ISTORE, f.condition);
    }
    Expr bound = storeCondition ? null : invocationBound(run);
    int end = bound == null ? f.rangeEnd : f.itemsEnd;
    if (bound != null) { // only invocations below the bound do anything: the loop ends there
      code.value(bound);
      mv.visitVarInsn(ILOAD, f.rangeEnd);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
      mv.visitVarInsn(ISTORE, end);
    }
    if (f.cooperative) {
      // only invocations done before the loop are skipped (one that ends in it is never met again):
      // where none is, the check is invariant and C2 runs the loop without it
      mv.visitVarInsn(ILOAD, f.doneCount);
      mv.visitVarInsn(ISTORE, f.doneBefore);
    }
    countedLoop(
        mv,
        f.invocation,
        () -> {
          mv.visitVarInsn(ILOAD, f.rangeFirst);
          mv.visitVarInsn(ISTORE, f.invocation);
        },
        () -> mv.visitVarInsn(ILOAD, end),
        loop.next,
        () -> {
          if (f.cooperative) {
            mv.visitVarInsn(ILOAD, f.doneBefore);
            Label none = new Label();
            mv.visitJumpInsn(IFEQ, none);
            mv.visitVarInsn(ALOAD, f.done);
            mv.visitVarInsn(ILOAD, f.invocation);
            mv.visitInsn(BALOAD);
            mv.visitJumpInsn(IFNE, loop.next);
            mv.visitLabel(none);
          }
          localIds();
          if (f.gateInvocations) {
            for (int axis = 0; axis < 3; axis++) {
              mv.visitVarInsn(ILOAD, f.globalId[axis]);
              mv.visitVarInsn(ILOAD, 2 + axis);
              mv.visitJumpInsn(IF_ICMPGE, loop.next);
            }
          }
          invocationBody(
              () -> {
                if (storeCondition) {
                  agreeOnCondition(((Stmt.If) run.getFirst()).condition());
                } else {
                  code.statements(run);
                }
              });
        },
        null);
    f.current = null;
    if (storeCondition) {
      divergenceCheck();
    }
    // a break or continue that left the loop for a target outside it: the workgroup follows
    for (int code = 1; code <= loop.exits.size(); code++) {
      Label notThis = new Label();
      mv.visitVarInsn(ILOAD, f.jump);
      push(mv, code);
      mv.visitJumpInsn(IF_ICMPNE, notThis);
      push(mv, 0);
      mv.visitVarInsn(ISTORE, f.jump);
      mv.visitJumpInsn(GOTO, loop.exits.get(code - 1));
      mv.visitLabel(notThis);
    }
    if (f.cooperative) { // every invocation has returned: the workgroup is done
      mv.visitVarInsn(ILOAD, f.doneCount);
      push(mv, invocations);
      mv.visitJumpInsn(IF_ICMPGE, f.workgroupEnd);
    }
  }

  /**
   * Where {@code run} is one {@code if (localId(0) < s)} without an else in a one-dimensional
   * workgroup, with {@code s} a workgroup value (a tree sum's step): {@code s}, as invocations from
   * {@code s} on skip the whole run; otherwise null.
   */
  private Expr invocationBound(List<Stmt> run) {
    if (f.size[1] != 1
        || f.size[2] != 1
        || run.size() != 1
        || !(run.getFirst() instanceof Stmt.If branch)
        || !branch.otherwise().isEmpty()
        || !(branch.condition() instanceof Expr.Binary test)
        || test.left().type() != PrimType.INT) {
      return null;
    }
    if (test.op() == BinaryOp.LT && f.values.isLocalX(test.left()) && f.values.pure(test.right())) {
      return test.right();
    }
    if (test.op() == BinaryOp.GT && f.values.isLocalX(test.right()) && f.values.pure(test.left())) {
      return test.left();
    }
    return null;
  }

  /**
   * condition = the invocation's value where it is the first (-1 before), 2 where it differs from
   * theirs.
   */
  private void agreeOnCondition(Expr condition) {
    Label first = new Label();
    Label stored = new Label();
    code.value(condition);
    mv.visitVarInsn(ILOAD, f.condition);
    mv.visitJumpInsn(IFLT, first);
    mv.visitVarInsn(ILOAD, f.condition);
    mv.visitJumpInsn(IF_ICMPEQ, stored);
    push(mv, 2);
    mv.visitVarInsn(ISTORE, f.condition);
    mv.visitJumpInsn(GOTO, stored);
    mv.visitLabel(first);
    mv.visitVarInsn(ISTORE, f.condition);
    mv.visitLabel(stored);
  }

  /**
   * After a condition's work-item loop: none ran, false; they disagreed (subgroup operations under
   * a condition that differs within a subgroup), an exception.
   */
  private void divergenceCheck() {
    Label agreed = new Label();
    Label some = new Label();
    mv.visitVarInsn(ILOAD, f.condition);
    mv.visitJumpInsn(IFGE, some);
    push(mv, 0);
    mv.visitVarInsn(ISTORE, f.condition);
    mv.visitLabel(some);
    mv.visitVarInsn(ILOAD, f.condition);
    push(mv, 2);
    mv.visitJumpInsn(IF_ICMPNE, agreed);
    mv.visitTypeInsn(NEW, "java/lang/IllegalStateException");
    mv.visitInsn(DUP);
    mv.visitLdcInsn(
        f.kernelName
            + ": the lanes of a subgroup disagree on a condition around subgroup operations or"
            + " barriers; Kiln's CPU backend runs them in uniform control flow only, as the GPU's results would"
            + " depend on how its lanes reconverge");
    mv.visitMethodInsn(
        INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "(Ljava/lang/String;)V", false);
    mv.visitInsn(ATHROW);
    mv.visitLabel(agreed);
  }

  /**
   * The local and global ids of invocation number {@code invocation} of workgroup (wx, wy, wz); an
   * axis of size 1 keeps its local id 0 and needs no division.
   */
  private void localIds() {
    mv.visitVarInsn(ILOAD, f.invocation);
    if (f.size[1] * f.size[2] != 1) {
      push(mv, f.size[0]);
      mv.visitInsn(IREM);
    }
    mv.visitVarInsn(ISTORE, f.localId[0]);
    if (f.size[1] != 1) {
      mv.visitVarInsn(ILOAD, f.invocation);
      push(mv, f.size[0]);
      mv.visitInsn(IDIV);
      push(mv, f.size[1]);
      mv.visitInsn(IREM);
      mv.visitVarInsn(ISTORE, f.localId[1]);
    }
    if (f.size[2] != 1) {
      mv.visitVarInsn(ILOAD, f.invocation);
      push(mv, f.size[0] * f.size[1]);
      mv.visitInsn(IDIV);
      mv.visitVarInsn(ISTORE, f.localId[2]);
    }
    for (int axis = 0; axis < 3; axis++) {
      mv.visitVarInsn(ILOAD, f.workgroupId[axis]);
      push(mv, f.size[axis]);
      mv.visitInsn(IMUL);
      mv.visitVarInsn(ILOAD, f.localId[axis]);
      mv.visitInsn(IADD);
      mv.visitVarInsn(ISTORE, f.globalId[axis]);
    }
  }
}
