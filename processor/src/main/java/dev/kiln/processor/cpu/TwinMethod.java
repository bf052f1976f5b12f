package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.*;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.processor.cpu.TwinCalls.Unsupported;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * </ul>
 * An array access records its site in a local before it runs. An invocation that throws ends there
 * and the others run on, as on a GPU; once the loops end, the first exception goes to
 * {@code dev.kiln.cpu.CpuFaults}, which names kernel, array and line, as the GPU backend does.
 */
final class TwinMethod {
  private static final int ARGS = 0;
  private static final int GRIDS = 1;
  private static final int FIRST = 5;
  private static final int END = 6;
  private static final String FAULTS = "dev/kiln/cpu/CpuFaults";

  private final MethodVisitor mv;
  private final Program program;
  private final Map<String, Integer> argIndex;
  private final String kernelName;
  private final boolean barriers;
  private final boolean streaming;
  /** Whether invocations past the dispatch must be skipped here: a kernel without barriers, not gated by the IR. */
  private final boolean gateInvocations;
  private final int[] size;
  private int nextSlot = 7;

  private final Map<String, Integer> arrays = new HashMap<>();
  private final Map<String, Integer> scalars = new HashMap<>();
  private final Map<Local, Integer> locals = new HashMap<>();
  private int[][] counts;
  private final int[] workgroups = new int[3]; // GX, GY, GZ
  private final int[] workgroupId = new int[3];
  private final int[] localId = new int[3];
  private final int[] globalId = new int[3];
  private int group;
  private int invocation;
  private int site;
  private int jump;
  private int condition;
  private int done;
  private int doneCount;
  /** The first exception an invocation threw, and the site it threw at: thrown once the loops end. */
  private int fault;
  private int faultSite;
  private int thrown;
  private final StringBuilder siteTable = new StringBuilder();
  private int sites;

  /** Loops and switches that a break or continue can leave, innermost last. */
  private final Deque<Target> targets = new ArrayDeque<>();
  /** The work-item loop being emitted, or null at workgroup level. */
  private WorkItemLoop current;
  private Label workgroupEnd;

  private record Target(dev.kiln.processor.ir.Label label, boolean isLoop, Label breakTo, Label continueTo,
      boolean workgroupLevel) {}

  /** A loop over a workgroup's invocations: where the next invocation starts, and the exits to outer targets. */
  private static final class WorkItemLoop {
    final Label next = new Label();
    final List<Label> exits = new ArrayList<>();
  }

  TwinMethod(MethodVisitor mv, Program program, boolean gated, List<String> params, String kernelName) {
    this.mv = mv;
    this.program = program;
    this.argIndex = new HashMap<>();
    for (int i = 0; i < params.size(); i++) {
      argIndex.put(params.get(i), i);
    }
    this.kernelName = kernelName;
    this.barriers = program.usesBarriers();
    this.streaming = !barriers && program.shared().isEmpty();
    this.gateInvocations = !gated && !barriers;
    this.size = new int[] {program.workgroup().x(), program.workgroup().y(), program.workgroup().z()};
    if (program.elementsPerInvocation() != 1) {
      throw new Unsupported("a vectorized program");
    }
  }

  void emit() {
    mv.visitCode();
    prologue();
    if (streaming) {
      streamingLoops();
    } else {
      workgroupLoop();
    }
    Label clean = new Label();
    mv.visitVarInsn(ALOAD, fault);
    mv.visitJumpInsn(IFNULL, clean);
    mv.visitVarInsn(ALOAD, fault);
    mv.visitTypeInsn(CHECKCAST, "java/lang/RuntimeException");
    mv.visitLdcInsn(siteTable.toString());
    mv.visitVarInsn(ILOAD, faultSite);
    mv.visitLdcInsn(kernelName);
    mv.visitMethodInsn(INVOKESTATIC, FAULTS, "at",
        "(Ljava/lang/RuntimeException;Ljava/lang/String;ILjava/lang/String;)Ljava/lang/RuntimeException;", false);
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
    mv.visitJumpInsn(GOTO, current.next);
    mv.visitLabel(handler);
    mv.visitVarInsn(ASTORE, thrown);
    mv.visitVarInsn(ALOAD, fault);
    mv.visitJumpInsn(IFNONNULL, recorded);
    mv.visitVarInsn(ALOAD, thrown);
    mv.visitVarInsn(ASTORE, fault);
    mv.visitVarInsn(ILOAD, site);
    mv.visitVarInsn(ISTORE, faultSite);
    mv.visitLabel(recorded);
    if (barriers) {
      markReturned();
    }
    mv.visitJumpInsn(GOTO, current.next);
  }

  private void markReturned() {
    mv.visitVarInsn(ALOAD, done);
    mv.visitVarInsn(ILOAD, invocation);
    mv.visitInsn(ICONST_1);
    mv.visitInsn(BASTORE);
    mv.visitIincInsn(doneCount, 1);
  }

  // ---- set-up ------------------------------------------------------------------------------

  private int slot(PrimType type) {
    int slot = nextSlot;
    nextSlot += type == PrimType.LONG || type == PrimType.DOUBLE ? 2 : 1;
    return slot;
  }

  private int intSlot(int initial) {
    int slot = nextSlot++;
    push(mv, initial);
    mv.visitVarInsn(ISTORE, slot);
    return slot;
  }

  private int referenceSlot() {
    int slot = nextSlot++;
    mv.visitInsn(ACONST_NULL);
    mv.visitVarInsn(ASTORE, slot);
    return slot;
  }

  private void prologue() {
    for (BufferDecl buffer : program.buffers()) {
      int slot = nextSlot++;
      argument(buffer.name());
      mv.visitTypeInsn(CHECKCAST, TwinCalls.arrayDescriptor(buffer.element()));
      mv.visitVarInsn(ASTORE, slot);
      arrays.put(buffer.name(), slot);
    }
    for (ScalarParam scalar : program.scalars()) {
      int slot = slot(scalar.type());
      argument(scalar.name());
      unbox(scalar.type());
      mv.visitVarInsn(store(scalar.type()), slot);
      scalars.put(scalar.name(), slot);
    }
    counts = new int[program.arms()][3];
    for (int arm = 0; arm < program.arms(); arm++) {
      for (int axis = 0; axis < 3; axis++) {
        counts[arm][axis] = nextSlot++;
        mv.visitVarInsn(ALOAD, GRIDS);
        push(mv, 3 * arm + axis);
        mv.visitInsn(IALOAD);
        mv.visitVarInsn(ISTORE, counts[arm][axis]);
      }
    }
    for (int axis = 0; axis < 3; axis++) { // workgroups along each axis: ceil(dispatch / size)
      workgroups[axis] = nextSlot++;
      mv.visitVarInsn(ILOAD, 2 + axis);
      push(mv, size[axis]);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "ceilDiv", "(II)I", false);
      mv.visitVarInsn(ISTORE, workgroups[axis]);
      workgroupId[axis] = intSlot(0);
      localId[axis] = intSlot(0);
      globalId[axis] = intSlot(0);
    }
    group = intSlot(0);
    invocation = intSlot(0);
    site = intSlot(-1);
    jump = intSlot(0);
    condition = intSlot(0);
    doneCount = intSlot(0);
    fault = referenceSlot();
    faultSite = intSlot(-1);
    thrown = referenceSlot();
    int invocations = size[0] * size[1] * size[2];
    done = referenceSlot();
    if (barriers) {
      push(mv, invocations);
      mv.visitIntInsn(NEWARRAY, T_BOOLEAN);
      mv.visitVarInsn(ASTORE, done);
    }
    for (SharedArray shared : program.shared()) {
      arrays.put(shared.name(), newArray(shared.element(), shared.size()));
    }
    for (PrivateArray array : program.privates()) {
      if (barriers) { // one per invocation
        int slot = nextSlot++;
        push(mv, invocations);
        push(mv, array.size());
        mv.visitMultiANewArrayInsn("[" + TwinCalls.arrayDescriptor(array.element()), 2);
        mv.visitVarInsn(ASTORE, slot);
        arrays.put(array.name(), slot);
      } else {
        arrays.put(array.name(), newArray(array.element(), array.size()));
      }
    }
    List<Local> all = new ArrayList<>(program.locals());
    Walk.expressions(program.body(), e -> {
      if (e instanceof Expr.Let let && !all.contains(let.local())) {
        all.add(let.local());
      }
    });
    for (Local local : all) {
      if (barriers) {
        int slot = nextSlot++;
        push(mv, invocations);
        newArrayOf(local.type());
        mv.visitVarInsn(ASTORE, slot);
        locals.put(local, slot);
      } else {
        int slot = slot(local.type());
        zero(mv, local.type());
        mv.visitVarInsn(store(local.type()), slot);
        locals.put(local, slot);
      }
    }
  }

  private void argument(String name) {
    Integer index = argIndex.get(name);
    if (index == null) {
      throw new Unsupported("no parameter named " + name);
    }
    mv.visitVarInsn(ALOAD, ARGS);
    push(mv, index);
    mv.visitInsn(AALOAD);
  }

  private void unbox(PrimType type) {
    switch (type) {
      case INT, BYTE, SHORT, CHAR -> {
        mv.visitTypeInsn(CHECKCAST, "java/lang/Number");
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Number", "intValue", "()I", false);
      }
      case LONG -> {
        mv.visitTypeInsn(CHECKCAST, "java/lang/Number");
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Number", "longValue", "()J", false);
      }
      case FLOAT -> {
        mv.visitTypeInsn(CHECKCAST, "java/lang/Number");
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Number", "floatValue", "()F", false);
      }
      case DOUBLE -> {
        mv.visitTypeInsn(CHECKCAST, "java/lang/Number");
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Number", "doubleValue", "()D", false);
      }
      case BOOLEAN -> {
        mv.visitTypeInsn(CHECKCAST, "java/lang/Boolean");
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Boolean", "booleanValue", "()Z", false);
      }
    }
  }

  private int newArray(PrimType element, int length) {
    int slot = nextSlot++;
    push(mv, length);
    newArrayOf(element);
    mv.visitVarInsn(ASTORE, slot);
    return slot;
  }

  private void newArrayOf(PrimType element) {
    mv.visitIntInsn(NEWARRAY, switch (element) {
      case BOOLEAN -> T_BOOLEAN;
      case BYTE -> T_BYTE;
      case SHORT -> T_SHORT;
      case CHAR -> T_CHAR;
      case INT -> T_INT;
      case LONG -> T_LONG;
      case FLOAT -> T_FLOAT;
      case DOUBLE -> T_DOUBLE;
    });
  }

  // ---- the loops ---------------------------------------------------------------------------

  /** Global ids in loops; consecutive workgroups along x form one run of x. */
  private void streamingLoops() {
    int run = intSlot(0);
    int xEnd = intSlot(0);
    int yEnd = intSlot(0);
    int zEnd = intSlot(0);
    mv.visitVarInsn(ILOAD, FIRST);
    mv.visitVarInsn(ISTORE, group);
    Label groups = new Label();
    Label finished = new Label();
    mv.visitLabel(groups);
    mv.visitVarInsn(ILOAD, group);
    mv.visitVarInsn(ILOAD, END);
    mv.visitJumpInsn(IF_ICMPGE, finished);
    splitGroup();
    // run = min(end - group, GX - wx)
    mv.visitVarInsn(ILOAD, END);
    mv.visitVarInsn(ILOAD, group);
    mv.visitInsn(ISUB);
    mv.visitVarInsn(ILOAD, workgroups[0]);
    mv.visitVarInsn(ILOAD, workgroupId[0]);
    mv.visitInsn(ISUB);
    mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
    mv.visitVarInsn(ISTORE, run);
    // x from wx * sx to min((wx + run) * sx, dx)
    mv.visitVarInsn(ILOAD, workgroupId[0]);
    mv.visitVarInsn(ILOAD, run);
    mv.visitInsn(IADD);
    push(mv, size[0]);
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
      mv.visitVarInsn(ILOAD, globalId[axis]);
      mv.visitVarInsn(ILOAD, ends[axis]);
      mv.visitJumpInsn(IF_ICMPGE, exits[axis]);
    }
    current = new WorkItemLoop();
    invocationBody(() -> statements(program.body()));
    mv.visitLabel(current.next);
    current = null;
    for (int axis = 0; axis < 3; axis++) {
      mv.visitIincInsn(globalId[axis], 1);
      mv.visitJumpInsn(GOTO, tops[axis]);
      mv.visitLabel(exits[axis]);
    }
    mv.visitVarInsn(ILOAD, group);
    mv.visitVarInsn(ILOAD, run);
    mv.visitInsn(IADD);
    mv.visitVarInsn(ISTORE, group);
    mv.visitJumpInsn(GOTO, groups);
    mv.visitLabel(finished);
  }

  /** {@code id = w * size}; for y and z also {@code end = min(id + size, dispatch)}. */
  private void axisStart(int axis, int end, boolean computeEnd) {
    mv.visitVarInsn(ILOAD, workgroupId[axis]);
    push(mv, size[axis]);
    mv.visitInsn(IMUL);
    mv.visitVarInsn(ISTORE, globalId[axis]);
    if (computeEnd) {
      mv.visitVarInsn(ILOAD, globalId[axis]);
      push(mv, size[axis]);
      mv.visitInsn(IADD);
      mv.visitVarInsn(ILOAD, 2 + axis);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
      mv.visitVarInsn(ISTORE, end);
    }
  }

  /** wx, wy, wz of workgroup number {@code group}. */
  private void splitGroup() {
    mv.visitVarInsn(ILOAD, group);
    mv.visitVarInsn(ILOAD, workgroups[0]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, workgroupId[0]);
    mv.visitVarInsn(ILOAD, group);
    mv.visitVarInsn(ILOAD, workgroups[0]);
    mv.visitInsn(IDIV);
    mv.visitInsn(DUP);
    mv.visitVarInsn(ILOAD, workgroups[1]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, workgroupId[1]);
    mv.visitVarInsn(ILOAD, workgroups[1]);
    mv.visitInsn(IDIV);
    mv.visitVarInsn(ISTORE, workgroupId[2]);
  }

  /** Workgroup by workgroup, work-item loops between the barriers. */
  private void workgroupLoop() {
    mv.visitVarInsn(ILOAD, FIRST);
    mv.visitVarInsn(ISTORE, group);
    Label groups = new Label();
    Label finished = new Label();
    mv.visitLabel(groups);
    mv.visitVarInsn(ILOAD, group);
    mv.visitVarInsn(ILOAD, END);
    mv.visitJumpInsn(IF_ICMPGE, finished);
    splitGroup();
    for (SharedArray shared : program.shared()) { // fresh, as each workgroup's arrays are in Java
      mv.visitVarInsn(ALOAD, arrays.get(shared.name()));
      zero(mv, shared.element());
      fill(mv, shared.element());
    }
    if (barriers) {
      mv.visitVarInsn(ALOAD, done);
      mv.visitInsn(ICONST_0);
      mv.visitMethodInsn(INVOKESTATIC, "java/util/Arrays", "fill", "([ZZ)V", false);
      push(mv, 0);
      mv.visitVarInsn(ISTORE, doneCount);
    }
    workgroupEnd = new Label();
    region(program.body());
    mv.visitLabel(workgroupEnd);
    mv.visitIincInsn(group, 1);
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
      workItems(run);
      run = new ArrayList<>();
      switch (statement) {
        case Stmt.Barrier b -> {}
        case Stmt.If branch -> {
          conditionOfWorkgroup(branch.condition());
          Label otherwise = new Label();
          Label end = new Label();
          mv.visitVarInsn(ILOAD, condition);
          mv.visitJumpInsn(IFEQ, otherwise);
          region(branch.then());
          mv.visitJumpInsn(GOTO, end);
          mv.visitLabel(otherwise);
          region(branch.otherwise());
          mv.visitLabel(end);
        }
        case Stmt.Loop loop -> workgroupLevelLoop(loop);
        default -> throw new Unsupported("a barrier inside " + statement.getClass().getSimpleName());
      }
    }
    workItems(run);
  }

  private static boolean hasBarrier(Stmt statement) {
    return Walk.anyStatement(List.of(statement), s -> s instanceof Stmt.Barrier);
  }

  private void workgroupLevelLoop(Stmt.Loop loop) {
    Label top = new Label();
    Label next = new Label();
    Label exit = new Label();
    mv.visitLabel(top);
    if (loop.testFirst()) {
      conditionOfWorkgroup(loop.condition());
      mv.visitVarInsn(ILOAD, condition);
      mv.visitJumpInsn(IFEQ, exit);
    }
    targets.addLast(new Target(loop.label(), true, exit, next, true));
    region(loop.body());
    mv.visitLabel(next);
    region(loop.update());
    targets.removeLast();
    if (!loop.testFirst()) {
      conditionOfWorkgroup(loop.condition());
      mv.visitVarInsn(ILOAD, condition);
      mv.visitJumpInsn(IFEQ, exit);
    }
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(exit);
  }

  /** Every running invocation evaluates {@code expression}; the workgroup takes the value. */
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
    int invocations = size[0] * size[1] * size[2];
    WorkItemLoop loop = new WorkItemLoop();
    current = loop;
    Label top = new Label();
    Label exit = new Label();
    push(mv, 0);
    mv.visitVarInsn(ISTORE, invocation);
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, invocation);
    push(mv, invocations);
    mv.visitJumpInsn(IF_ICMPGE, exit);
    if (barriers) {
      mv.visitVarInsn(ALOAD, done);
      mv.visitVarInsn(ILOAD, invocation);
      mv.visitInsn(BALOAD);
      mv.visitJumpInsn(IFNE, loop.next);
    }
    localIds();
    if (gateInvocations) {
      for (int axis = 0; axis < 3; axis++) {
        mv.visitVarInsn(ILOAD, globalId[axis]);
        mv.visitVarInsn(ILOAD, 2 + axis);
        mv.visitJumpInsn(IF_ICMPGE, loop.next);
      }
    }
    invocationBody(() -> {
      if (storeCondition) {
        value(((Stmt.If) run.getFirst()).condition());
        mv.visitVarInsn(ISTORE, condition);
      } else {
        statements(run);
      }
    });
    mv.visitLabel(loop.next);
    mv.visitIincInsn(invocation, 1);
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(exit);
    current = null;
    // a break or continue that left the loop for a target outside it: the workgroup follows
    for (int code = 1; code <= loop.exits.size(); code++) {
      Label notThis = new Label();
      mv.visitVarInsn(ILOAD, jump);
      push(mv, code);
      mv.visitJumpInsn(IF_ICMPNE, notThis);
      push(mv, 0);
      mv.visitVarInsn(ISTORE, jump);
      mv.visitJumpInsn(GOTO, loop.exits.get(code - 1));
      mv.visitLabel(notThis);
    }
    if (barriers) { // every invocation has returned: the workgroup is done
      mv.visitVarInsn(ILOAD, doneCount);
      push(mv, invocations);
      mv.visitJumpInsn(IF_ICMPGE, workgroupEnd);
    }
  }

  /** The local and global ids of invocation number {@code invocation} of workgroup (wx, wy, wz). */
  private void localIds() {
    mv.visitVarInsn(ILOAD, invocation);
    push(mv, size[0]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, localId[0]);
    mv.visitVarInsn(ILOAD, invocation);
    push(mv, size[0]);
    mv.visitInsn(IDIV);
    push(mv, size[1]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, localId[1]);
    mv.visitVarInsn(ILOAD, invocation);
    push(mv, size[0] * size[1]);
    mv.visitInsn(IDIV);
    mv.visitVarInsn(ISTORE, localId[2]);
    for (int axis = 0; axis < 3; axis++) {
      mv.visitVarInsn(ILOAD, workgroupId[axis]);
      push(mv, size[axis]);
      mv.visitInsn(IMUL);
      mv.visitVarInsn(ILOAD, localId[axis]);
      mv.visitInsn(IADD);
      mv.visitVarInsn(ISTORE, globalId[axis]);
    }
  }

  // ---- statements --------------------------------------------------------------------------

  private void statements(List<Stmt> body) {
    body.forEach(this::statement);
  }

  private void statement(Stmt statement) {
    switch (statement) {
      case Stmt.Assign assign -> {
        beginLocal(assign.local());
        value(assign.value());
        endStore(assign.local());
      }
      case Stmt.Store store -> {
        array(store.array());
        value(store.index());
        value(store.value());
        at(store.array(), store.site().line());
        mv.visitInsn(arrayStore(store.array().element()));
      }
      case Stmt.Atomic atomic -> {
        if (atomic.result() != null) {
          beginLocal(atomic.result());
        }
        array(atomic.array());
        value(atomic.index());
        if (atomic.expected() != null) {
          value(atomic.expected());
        }
        value(atomic.value());
        at(atomic.array(), atomic.site().line());
        TwinCalls.atomic(mv, atomic.op(), atomic.array().element());
        if (atomic.result() != null) {
          endStore(atomic.result());
        } else {
          pop(mv, atomic.array().element());
        }
      }
      case Stmt.DeclareShared d -> {}
      case Stmt.ClearArray clear -> {
        array(clear.array());
        zero(mv, clear.array().element());
        fill(mv, clear.array().element());
      }
      case Stmt.If branch -> {
        Label otherwise = new Label();
        Label end = new Label();
        value(branch.condition());
        mv.visitJumpInsn(IFEQ, otherwise);
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
        targets.addLast(new Target(loop.label(), true, exit, next, false));
        statements(loop.body());
        mv.visitLabel(next);
        statements(loop.update());
        targets.removeLast();
        if (!loop.testFirst()) {
          value(loop.condition());
          mv.visitJumpInsn(IFEQ, exit);
        }
        mv.visitJumpInsn(GOTO, top);
        mv.visitLabel(exit);
      }
      case Stmt.Switch choice -> switchStatement(choice);
      case Stmt.Break leave -> jump(find(leave.label(), false), false);
      case Stmt.Continue next -> jump(find(next.label(), true), true);
      case Stmt.Return r -> {
        if (barriers) {
          markReturned();
        }
        mv.visitJumpInsn(GOTO, current.next);
      }
      case Stmt.Barrier b -> throw new Unsupported("a barrier outside workgroup-level code");
      case Stmt.VectorLoad v -> throw new Unsupported("a vectorized program");
      case Stmt.VectorStore v -> throw new Unsupported("a vectorized program");
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
    targets.addLast(new Target(null, false, exit, null, false));
    for (int k = 0; k < bodies.length; k++) {
      mv.visitLabel(bodies[k]);
      statements(choice.cases().get(k).body());
    }
    targets.removeLast();
    mv.visitLabel(exit);
  }

  /** The target of a break ({@code toLoop} false: a loop or switch) or continue (a loop), by label or innermost. */
  private Target find(dev.kiln.processor.ir.Label label, boolean toLoop) {
    var it = targets.descendingIterator();
    while (it.hasNext()) {
      Target target = it.next();
      if (label != null ? label.equals(target.label()) : (target.isLoop() || !toLoop)) {
        return target;
      }
    }
    throw new Unsupported("a jump without its target");
  }

  /** Jumps to {@code target}; from inside a work-item loop to a target outside it, through the jump code. */
  private void jump(Target target, boolean toContinue) {
    Label destination = toContinue ? target.continueTo() : target.breakTo();
    boolean outside = current != null && target.workgroupLevel();
    if (!outside) {
      mv.visitJumpInsn(GOTO, destination);
      return;
    }
    current.exits.add(destination);
    push(mv, current.exits.size());
    mv.visitVarInsn(ISTORE, jump);
    mv.visitJumpInsn(GOTO, current.next);
  }

  // ---- locals and arrays -------------------------------------------------------------------

  private int localSlot(Local local) {
    Integer slot = locals.get(local);
    if (slot == null) {
      throw new Unsupported("a local the program does not declare: " + local.name());
    }
    return slot;
  }

  /** Before a local's value is pushed: its invocation's element, where locals are per invocation. */
  private void beginLocal(Local local) {
    if (barriers) {
      mv.visitVarInsn(ALOAD, localSlot(local));
      mv.visitVarInsn(ILOAD, invocation);
    }
  }

  private void endStore(Local local) {
    if (barriers) {
      mv.visitInsn(arrayStore(local.type()));
    } else {
      mv.visitVarInsn(store(local.type()), localSlot(local));
    }
  }

  private void loadLocal(Local local) {
    if (barriers) {
      mv.visitVarInsn(ALOAD, localSlot(local));
      mv.visitVarInsn(ILOAD, invocation);
      mv.visitInsn(arrayLoad(local.type()));
    } else {
      mv.visitVarInsn(load(local.type()), localSlot(local));
    }
  }

  /** Pushes the Java array behind {@code array}: a buffer, the workgroup's array, or the invocation's own. */
  private void array(ArrayDecl array) {
    Integer slot = arrays.get(array.name());
    if (slot == null) {
      throw new Unsupported("an array the program does not declare: " + array.name());
    }
    mv.visitVarInsn(ALOAD, slot);
    if (barriers && array instanceof PrivateArray) {
      mv.visitVarInsn(ILOAD, invocation);
      mv.visitInsn(AALOAD);
    }
  }

  /** Records the site of the access about to run: its array and line, for a fault's message. */
  private void at(ArrayDecl array, int line) {
    String kind = array instanceof BufferDecl ? "buffer" : "local";
    siteTable.append(array.name()).append('|').append(kind).append('|').append(line).append('\n');
    push(mv, sites++);
    mv.visitVarInsn(ISTORE, site);
  }

  // ---- expressions -------------------------------------------------------------------------

  /** Pushes {@code expression}'s value, a boolean as 1 or 0, byte, short and char as ints. */
  private void value(Expr expression) {
    switch (expression) {
      case Expr.IntConst c -> push(mv, c.value());
      case Expr.FloatConst c -> mv.visitLdcInsn(c.value());
      case Expr.LongConst c -> mv.visitLdcInsn(c.value());
      case Expr.DoubleConst c -> mv.visitLdcInsn(c.value());
      case Expr.BoolConst c -> push(mv, c.value() ? 1 : 0);
      case Expr.LocalGet get -> loadLocal(get.local());
      case Expr.ScalarGet get -> mv.visitVarInsn(load(get.type()), scalars.get(get.param().name()));
      case Expr.Load load -> {
        array(load.array());
        value(load.index());
        at(load.array(), load.site().line());
        mv.visitInsn(arrayLoad(load.array().element()));
      }
      case Expr.Length length -> {
        array(length.buffer());
        mv.visitInsn(ARRAYLENGTH);
      }
      case Expr.BuiltinGet get -> builtin(get.builtin(), get.axis());
      case Expr.InLaunch in -> inLaunch(in);
      case Expr.ArmWorkgroups w -> {
        mv.visitVarInsn(ILOAD, counts[w.arm()][w.axis()]);
        push(mv, w.size());
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "ceilDiv", "(II)I", false);
      }
      case Expr.LaunchCount c -> mv.visitVarInsn(ILOAD, counts[c.arm()][c.axis()]);
      case Expr.Unary unary -> unary(unary);
      case Expr.Binary binary -> binary(binary);
      case Expr.Call call -> {
        PrimType[] types = new PrimType[call.arguments().size()];
        for (int i = 0; i < types.length; i++) {
          value(call.arguments().get(i));
          types[i] = call.arguments().get(i).type();
        }
        TwinCalls.call(mv, call.function(), types, () -> {
          if (streaming) {
            localIndexStreaming();
          } else {
            mv.visitVarInsn(ILOAD, invocation);
          }
        }, () -> push(mv, size[0] * size[1] * size[2]));
      }
      case Expr.Convert convert -> {
        value(convert.value());
        convert(mv, convert.value().type(), convert.type());
      }
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
        beginLocal(let.local());
        value(let.value());
        endStore(let.local());
        value(let.body());
      }
      case Expr.Effect effect -> {
        statements(effect.statements());
        value(effect.value());
      }
    }
  }

  private void builtin(Builtin builtin, int axis) {
    if (!streaming) {
      switch (builtin) {
        case GLOBAL_ID -> mv.visitVarInsn(ILOAD, globalId[axis]);
        case LOCAL_ID -> mv.visitVarInsn(ILOAD, localId[axis]);
        case WORKGROUP_ID -> mv.visitVarInsn(ILOAD, workgroupId[axis]);
        case NUM_WORKGROUPS -> mv.visitVarInsn(ILOAD, workgroups[axis]);
      }
      return;
    }
    switch (builtin) { // the loops hold global ids: the others follow from them
      case GLOBAL_ID -> mv.visitVarInsn(ILOAD, globalId[axis]);
      case LOCAL_ID -> {
        mv.visitVarInsn(ILOAD, globalId[axis]);
        push(mv, size[axis]);
        mv.visitInsn(IREM);
      }
      case WORKGROUP_ID -> {
        mv.visitVarInsn(ILOAD, globalId[axis]);
        push(mv, size[axis]);
        mv.visitInsn(IDIV);
      }
      case NUM_WORKGROUPS -> mv.visitVarInsn(ILOAD, workgroups[axis]);
    }
  }

  /** The invocation's index in its workgroup, from the global ids of the streaming loops. */
  private void localIndexStreaming() {
    builtin(Builtin.LOCAL_ID, 2);
    push(mv, size[1]);
    mv.visitInsn(IMUL);
    builtin(Builtin.LOCAL_ID, 1);
    mv.visitInsn(IADD);
    push(mv, size[0]);
    mv.visitInsn(IMUL);
    builtin(Builtin.LOCAL_ID, 0);
    mv.visitInsn(IADD);
  }

  /** Whether the invocation (or its workgroup) lies inside arm {@code arm}'s grid, as 1 or 0. */
  private void inLaunch(Expr.InLaunch in) {
    Label outside = new Label();
    Label end = new Label();
    for (int axis = 0; axis < 3; axis++) {
      if (in.wholeWorkgroups()) {
        builtin(Builtin.WORKGROUP_ID, axis);
        mv.visitVarInsn(ILOAD, counts[in.arm()][axis]);
        push(mv, size[axis]);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "ceilDiv", "(II)I", false);
      } else {
        builtin(Builtin.GLOBAL_ID, axis);
        mv.visitVarInsn(ILOAD, counts[in.arm()][axis]);
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
      case NEG -> mv.visitInsn(switch (kind(type)) {
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
    value(binary.left());
    value(binary.right());
    BinaryOp op = binary.op();
    if (op.isComparison()) {
      compare(mv, op, type);
      return;
    }
    int base = switch (op) {
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
    int offset = switch (type) {
      case LONG -> 1;
      case FLOAT -> 2;
      case DOUBLE -> 3;
      default -> 0;
    };
    mv.visitInsn(base + offset);
  }
}
