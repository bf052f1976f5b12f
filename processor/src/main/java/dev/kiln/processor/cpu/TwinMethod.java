package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.*;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.abi.CpuFaults;
import dev.kiln.processor.cpu.TwinCalls.Unsupported;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * One program's CPU twin: a static method
 * {@code (Object[] args, int[] grids, int dx, int dy, int dz, int first, int end)} that runs
 * workgroups {@code first .. end-1} (numbered x fastest) of a dispatch of {@code dx × dy × dz}
 * invocations, with the ids as loop variables and the parameters in typed locals.
 * <ul>
 *   <li>A program without barriers or workgroup memory loops over global ids, consecutive
 *       workgroups along x merged into one loop that C2 can unroll and vectorize.
 *   <li>Otherwise it runs workgroup by workgroup. Code between barriers is a work-item loop over the
 *       workgroup's invocations (the technique of CPU OpenCL implementations such as POCL); a loop or
 *       {@code if} that contains a barrier runs once for the workgroup, its condition evaluated by every
 *       invocation and taken from them (barriers stand in uniform control flow, which the checks
 *       demand). Locals of such a program are one array element per invocation, so that they live
 *       across barriers; an invocation that returns is marked and skipped by later loops.
 *   <li>A program with subgroup operations runs so too, and a run of statements between barriers
 *       that holds one runs subgroup by subgroup ({@code rangeFirst .. rangeEnd-1}): each operation
 *       once for the subgroup's lanes ({@link TwinSubgroups}), an {@code if} or loop around one at
 *       subgroup level, with the condition its lanes agree on (they must), the rest as work-item
 *       loops over the lanes.
 * </ul>
 * An array access records its site in a local before it runs. An invocation that throws ends there
 * and the others run on, as on a GPU; once the loops end, the first exception goes to
 * {@code dev.kiln.abi.CpuFaults}, which names kernel, array and line, as the GPU backend does.
 */
final class TwinMethod {
  private final TwinFrame f;
  private final TwinCode code;
  private final MethodVisitor mv;

  TwinMethod(MethodVisitor mv, Program program, boolean gated, List<String> params, String kernelName) {
    this.f = new TwinFrame(mv, program, gated, params, kernelName);
    this.code = new TwinCode(f);
    this.mv = mv;
  }

  void emit() {
    mv.visitCode();
    f.prologue();
    if (f.streaming) {
      streamingLoops();
    } else {
      workgroupLoop();
    }
    Label clean = new Label();
    mv.visitVarInsn(ALOAD, f.fault);
    mv.visitJumpInsn(IFNULL, clean);
    mv.visitVarInsn(ALOAD, f.fault);
    mv.visitTypeInsn(CHECKCAST, "java/lang/RuntimeException");
    mv.visitLdcInsn(f.siteTable.toString());
    mv.visitVarInsn(ILOAD, f.faultSite);
    mv.visitVarInsn(ALOAD, f.faultArray);
    mv.visitVarInsn(ILOAD, f.faultIndex);
    mv.visitLdcInsn(f.kernelName);
    mv.visitMethodInsn(INVOKESTATIC, TwinFrame.FAULTS, "at", CpuFaults.AT_TYPE.toMethodDescriptorString(), false);
    mv.visitInsn(ATHROW);
    mv.visitLabel(clean);
    mv.visitInsn(RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  /**
   * Emits {@code body} as one invocation's code: an exception it throws is kept (the first one
   * only) and the invocation ends there, as a GPU invocation's fault ends nothing but its own work
   * and is reported after the launch; later invocations run on. With barriers the invocation counts
   * as returned.
   */
  private void invocationBody(Runnable body) {
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
    mv.visitVarInsn(ALOAD, f.fault);
    mv.visitJumpInsn(IFNONNULL, recorded);
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

  /** Global ids in loops; consecutive workgroups along x form one run of x. */
  private void streamingLoops() {
    int run = f.intSlot(0);
    int xEnd = f.intSlot(0);
    int yEnd = f.intSlot(0);
    int zEnd = f.intSlot(0);
    Label groups = new Label();
    Label finished = new Label();
    groupsFrom(groups, finished);
    // run = min(end - group, GX - wx)
    mv.visitVarInsn(ILOAD, TwinFrame.END);
    mv.visitVarInsn(ILOAD, f.group);
    mv.visitInsn(ISUB);
    mv.visitVarInsn(ILOAD, f.workgroups[0]);
    mv.visitVarInsn(ILOAD, f.workgroupId[0]);
    mv.visitInsn(ISUB);
    mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
    mv.visitVarInsn(ISTORE, run);
    // x from wx * sx to min((wx + run) * sx, dx)
    mv.visitVarInsn(ILOAD, f.workgroupId[0]);
    mv.visitVarInsn(ILOAD, run);
    mv.visitInsn(IADD);
    push(mv, f.size[0]);
    mv.visitInsn(IMUL);
    mv.visitVarInsn(ILOAD, 2);
    mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
    mv.visitVarInsn(ISTORE, xEnd);
    int[] ends = {xEnd, yEnd, zEnd};
    Label[] tops = new Label[3];
    Label[] exits = new Label[3];
    for (int axis = 2; axis >= 0; axis--) {
      axisStart(axis, ends[axis], axis != 0);
      tops[axis] = new Label();
      exits[axis] = new Label();
      mv.visitLabel(tops[axis]);
      mv.visitVarInsn(ILOAD, f.globalId[axis]);
      mv.visitVarInsn(ILOAD, ends[axis]);
      mv.visitJumpInsn(IF_ICMPGE, exits[axis]);
    }
    f.current = new TwinFrame.WorkItemLoop();
    invocationBody(() -> code.statements(f.program.body()));
    mv.visitLabel(f.current.next);
    f.current = null;
    for (int axis = 0; axis < 3; axis++) {
      mv.visitIincInsn(f.globalId[axis], 1);
      mv.visitJumpInsn(GOTO, tops[axis]);
      mv.visitLabel(exits[axis]);
    }
    mv.visitVarInsn(ILOAD, f.group);
    mv.visitVarInsn(ILOAD, run);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, f.group);
    mv.visitJumpInsn(GOTO, groups);
    mv.visitLabel(finished);
  }

  /** {@code id = w * size}; for y and z also {@code end = min(id + size, dispatch)}. */
  private void axisStart(int axis, int end, boolean computeEnd) {
    mv.visitVarInsn(ILOAD, f.workgroupId[axis]);
    push(mv, f.size[axis]);
    mv.visitInsn(IMUL);
    mv.visitVarInsn(ISTORE, f.globalId[axis]);
    if (computeEnd) {
      mv.visitVarInsn(ILOAD, f.globalId[axis]);
      push(mv, f.size[axis]);
      mv.visitInsn(IADD);
      mv.visitVarInsn(ILOAD, 2 + axis);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
      mv.visitVarInsn(ISTORE, end);
    }
  }

  /**
   * The head of the loop over the workgroups of the range: {@code group} from {@code first} on,
   * leaving for {@code finished} at {@code end}, each split into wx, wy, wz; {@code top} is where the
   * loop returns to.
   */
  private void groupsFrom(Label top, Label finished) {
    mv.visitVarInsn(ILOAD, TwinFrame.FIRST);
    mv.visitVarInsn(ISTORE, f.group);
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, f.group);
    mv.visitVarInsn(ILOAD, TwinFrame.END);
    mv.visitJumpInsn(IF_ICMPGE, finished);
    splitGroup();
  }

  /** wx, wy, wz of workgroup number {@code group}. */
  private void splitGroup() {
    mv.visitVarInsn(ILOAD, f.group);
    mv.visitVarInsn(ILOAD, f.workgroups[0]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, f.workgroupId[0]);
    mv.visitVarInsn(ILOAD, f.group);
    mv.visitVarInsn(ILOAD, f.workgroups[0]);
    mv.visitInsn(IDIV);
    mv.visitInsn(DUP);
    mv.visitVarInsn(ILOAD, f.workgroups[1]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, f.workgroupId[1]);
    mv.visitVarInsn(ILOAD, f.workgroups[1]);
    mv.visitInsn(IDIV);
    mv.visitVarInsn(ISTORE, f.workgroupId[2]);
  }

  /** Workgroup by workgroup, work-item loops between the barriers. */
  private void workgroupLoop() {
    Label groups = new Label();
    Label finished = new Label();
    groupsFrom(groups, finished);
    for (SharedArray shared : f.program.shared()) { // fresh, as each workgroup's arrays are in Java
      mv.visitVarInsn(ALOAD, f.arrays.get(shared.name()));
      zero(mv, shared.element());
      fill(mv, shared.element());
    }
    wholeWorkgroup();
    if (f.cooperative) {
      mv.visitVarInsn(ALOAD, f.done);
      mv.visitInsn(ICONST_0);
      mv.visitMethodInsn(INVOKESTATIC, "java/util/Arrays", "fill", "([ZZ)V", false);
      push(mv, 0);
      mv.visitVarInsn(ISTORE, f.doneCount);
      if (f.subgroups && f.gateInvocations) {
        markOutsideTheDispatch();
      }
    }
    f.workgroupEnd = new Label();
    region(f.program.body());
    mv.visitLabel(f.workgroupEnd);
    mv.visitIincInsn(f.group, 1);
    mv.visitJumpInsn(GOTO, groups);
    mv.visitLabel(finished);
  }

  /** Statements at workgroup level: runs of statements without barriers become work-item loops. */
  private void region(List<Stmt> body) {
    List<Stmt> run = new ArrayList<>();
    for (Stmt statement : body) {
      if (!hasBarrier(statement)) {
        run.add(statement);
        continue;
      }
      items(run);
      run = new ArrayList<>();
      switch (statement) {
        case Stmt.Barrier b -> {}
        case Stmt.If branch -> levelIf(branch, false);
        case Stmt.Loop loop -> levelLoop(loop, false);
        default -> throw new Unsupported("a barrier inside " + statement.getClass().getSimpleName());
      }
    }
    items(run);
  }

  /** A run without barriers: work-item loops, or with subgroup operations one subgroup after the other. */
  private void items(List<Stmt> run) {
    if (SubgroupStatements.hasExchange(run)) {
      subgroupLoop(run);
    } else {
      workItems(run);
    }
  }

  /** {@code run} for each subgroup in turn: lanes {@code rangeFirst .. rangeEnd-1}. */
  private void subgroupLoop(List<Stmt> run) {
    Label top = new Label();
    Label exit = new Label();
    push(mv, 0);
    mv.visitVarInsn(ISTORE, f.rangeFirst);
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, f.rangeFirst);
    push(mv, invocations());
    mv.visitJumpInsn(IF_ICMPGE, exit);
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
    mv.visitVarInsn(ILOAD, f.rangeFirst);
    mv.visitVarInsn(ILOAD, TwinFrame.SUBGROUP_SIZE);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, f.rangeFirst);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(exit);
    wholeWorkgroup();
  }

  /**
   * Statements at subgroup level: each subgroup operation once for the subgroup's lanes, an
   * {@code if} or loop that holds one with the condition its lanes agree on, the rest as work-item
   * loops over the lanes.
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
        default -> throw new Unsupported("a subgroup operation inside " + statement.getClass().getSimpleName());
      }
    }
    workItems(run);
  }

  /** Work-item loops run the whole workgroup: invocations {@code 0 .. N-1}. */
  private void wholeWorkgroup() {
    push(mv, 0);
    mv.visitVarInsn(ISTORE, f.rangeFirst);
    push(mv, invocations());
    mv.visitVarInsn(ISTORE, f.rangeEnd);
  }

  /** Marks the invocations past the dispatch as done: they do not run, and are no subgroup's active lanes. */
  private void markOutsideTheDispatch() {
    Label top = new Label();
    Label next = new Label();
    Label exit = new Label();
    push(mv, 0);
    mv.visitVarInsn(ISTORE, f.invocation);
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, f.invocation);
    push(mv, invocations());
    mv.visitJumpInsn(IF_ICMPGE, exit);
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
    mv.visitLabel(next);
    mv.visitIincInsn(f.invocation, 1);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(exit);
  }

  private int invocations() {
    return f.size[0] * f.size[1] * f.size[2];
  }

  private static boolean hasBarrier(Stmt statement) {
    return Walk.anyStatement(List.of(statement), s -> s instanceof Stmt.Barrier);
  }

  /** An {@code if} that holds barriers ({@code lanes} false) or subgroup operations, run for the workgroup or the subgroup. */
  private void levelIf(Stmt.If branch, boolean lanes) {
    conditionOfWorkgroup(branch.condition());
    Label otherwise = new Label();
    Label end = new Label();
    mv.visitVarInsn(ILOAD, f.condition);
    mv.visitJumpInsn(IFEQ, otherwise);
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

  /** A loop that holds barriers ({@code lanes} false) or subgroup operations, run for the workgroup or the subgroup. */
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
    Label top = new Label();
    Label exit = new Label();
    if (storeCondition) {
      push(mv, -1);
      mv.visitVarInsn(ISTORE, f.condition);
    }
    mv.visitVarInsn(ILOAD, f.rangeFirst);
    mv.visitVarInsn(ISTORE, f.invocation);
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, f.invocation);
    mv.visitVarInsn(ILOAD, f.rangeEnd);
    mv.visitJumpInsn(IF_ICMPGE, exit);
    if (f.cooperative) {
      mv.visitVarInsn(ALOAD, f.done);
      mv.visitVarInsn(ILOAD, f.invocation);
      mv.visitInsn(BALOAD);
      mv.visitJumpInsn(IFNE, loop.next);
    }
    localIds();
    if (f.gateInvocations) {
      for (int axis = 0; axis < 3; axis++) {
        mv.visitVarInsn(ILOAD, f.globalId[axis]);
        mv.visitVarInsn(ILOAD, 2 + axis);
        mv.visitJumpInsn(IF_ICMPGE, loop.next);
      }
    }
    invocationBody(() -> {
      if (storeCondition) {
        agreeOnCondition(((Stmt.If) run.getFirst()).condition());
      } else {
        code.statements(run);
      }
    });
    mv.visitLabel(loop.next);
    mv.visitIincInsn(f.invocation, 1);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(exit);
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

  /** condition = the invocation's value where it is the first (-1 before), 2 where it differs from theirs. */
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
    mv.visitLdcInsn(f.kernelName + ": the lanes of a subgroup disagree on a condition around subgroup operations or"
        + " barriers; Kiln's CPU backend runs them in uniform control flow only, as the GPU's results would"
        + " depend on how its lanes reconverge");
    mv.visitMethodInsn(INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "(Ljava/lang/String;)V", false);
    mv.visitInsn(ATHROW);
    mv.visitLabel(agreed);
  }

  /** The local and global ids of invocation number {@code invocation} of workgroup (wx, wy, wz). */
  private void localIds() {
    mv.visitVarInsn(ILOAD, f.invocation);
    push(mv, f.size[0]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, f.localId[0]);
    mv.visitVarInsn(ILOAD, f.invocation);
    push(mv, f.size[0]);
    mv.visitInsn(IDIV);
    push(mv, f.size[1]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, f.localId[1]);
    mv.visitVarInsn(ILOAD, f.invocation);
    push(mv, f.size[0] * f.size[1]);
    mv.visitInsn(IDIV);
    mv.visitVarInsn(ISTORE, f.localId[2]);
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
