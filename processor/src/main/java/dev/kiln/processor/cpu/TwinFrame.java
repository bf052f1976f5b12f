package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.*;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.abi.CpuFaults;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * The state of one twin method being written: its local-variable slots (arguments unboxed into
 * typed locals, ids, the fault record, the program's locals: one element per invocation where the
 * program waits at barriers), the loops and switches a jump may leave, and the site table of its
 * array accesses. {@link TwinMethod} writes the loops, {@link TwinCode} the statements and
 * expressions, both through it.
 */
final class TwinFrame {
  // the method's parameters: args 0, grids 1, dx dy dz 2..4, first 5, end 6
  static final int ARGS = 0;
  static final int GRIDS = 1;
  static final int FIRST = 5;
  static final int END = 6;
  static final int SUBGROUP_SIZE = 7;
  static final String FAULTS = Type.getInternalName(CpuFaults.class);

  final MethodVisitor mv;
  final Program program;
  final Map<String, Integer> argIndex;
  final String kernelName;

  /**
   * Whether the invocations run side by side through the program: it has barriers or subgroup
   * operations, between which its code runs as work-item loops, its locals one array element per
   * invocation.
   */
  final boolean cooperative;

  /** Whether the program has subgroup operations, which run once per subgroup. */
  final boolean subgroups;

  final boolean streaming;

  /**
   * Whether invocations past the dispatch must be skipped here: a kernel without barriers, not
   * gated by the IR.
   */
  final boolean gateInvocations;

  final int[] size;

  /**
   * The locals held once per workgroup or read as ids, where locals are otherwise per invocation.
   */
  final WorkgroupValues values;

  int nextSlot = 8;

  final Map<String, Integer> arrays = new HashMap<>();

  /**
   * Per length a dimension of a private array checks its index against ({@link Expr.Checked}), an
   * array of that many elements whose access makes Java's check and names its length in a fault.
   */
  final Map<Integer, Integer> extents = new HashMap<>();

  final Map<String, Integer> scalars = new HashMap<>();
  final Map<Local, Integer> locals = new HashMap<>();
  int[][] counts;
  final int[] workgroups = new int[3]; // GX, GY, GZ
  final int[] workgroupId = new int[3];
  final int[] localId = new int[3];
  final int[] globalId = new int[3];

  /** Reads the ids held in the four slots above. */
  final TwinIds ids;

  /** The workgroup being run, by number (x fastest). */
  int group;

  /** The invocation's index in its workgroup, in a work-item loop. */
  int invocation;

  /** The array access last begun: its number in {@link #siteTable}, its array and index. */
  int site;

  int accessArray;
  int accessIndex;

  /** The outer target a work-item loop's invocations left for (0: none), by its number there. */
  int jump;

  /** A workgroup-level loop's or {@code if}'s condition, as the invocations evaluated it. */
  int condition;

  /**
   * The invocations a work-item loop runs: {@code rangeFirst .. rangeEnd-1}, the workgroup's or a
   * subgroup's.
   */
  int rangeFirst;

  int rangeEnd;

  /**
   * Where a work-item loop whose invocations from some bound on do nothing ends: the smaller of the
   * two.
   */
  int itemsEnd;

  /**
   * In code with subgroup operations: the targets outside the loop over subgroups, which no jump
   * may reach.
   */
  int outsideSubgroups = -1;

  /** Side by side: which invocations have returned or do not run (a boolean[]), and how many. */
  int done;

  int doneCount;

  /** How many were done when the current work-item loop began. */
  int doneBefore;

  /**
   * The exception Java throws first among the invocations' (the first in the lowest arm of a
   * group), and the access it threw at (site, array, index) and its arm: thrown once the loops end.
   */
  int fault;

  int faultSite;
  int faultArm;

  /** The fused group's arm whose code runs (0 in a kernel). */
  int arm;

  int faultArray;
  int faultIndex;
  int thrown;
  final StringBuilder siteTable = new StringBuilder();
  int sites;

  /** Loops and switches that a break or continue can leave, innermost last. */
  final Deque<Target> targets = new ArrayDeque<>();

  /** The work-item loop being emitted, or null at workgroup level. */
  WorkItemLoop current;

  Label workgroupEnd;

  record Target(
      dev.kiln.processor.ir.Label label,
      boolean isLoop,
      Label breakTo,
      Label continueTo,
      boolean workgroupLevel) {}

  /**
   * A loop over a workgroup's invocations: where the next invocation starts, and the exits to outer
   * targets.
   */
  static final class WorkItemLoop {
    final Label next = new Label();
    final List<Label> exits = new ArrayList<>();
  }

  TwinFrame(
      MethodVisitor mv, Program program, boolean gated, List<String> params, String kernelName) {
    this.mv = mv;
    this.program = program;
    this.argIndex = new HashMap<>();
    for (int i = 0; i < params.size(); i++) {
      argIndex.put(params.get(i), i);
    }
    this.kernelName = kernelName;
    this.subgroups = SubgroupStatements.hasExchange(program.body());
    this.cooperative = program.usesBarriers() || subgroups;
    this.streaming = !cooperative && program.shared().isEmpty();
    this.gateInvocations = !gated && !program.usesBarriers();
    this.size =
        new int[] {program.workgroup().x(), program.workgroup().y(), program.workgroup().z()};
    this.values = cooperative && !subgroups ? WorkgroupValues.of(program) : WorkgroupValues.none();
    this.ids = new TwinIds(mv, streaming, size, workgroups, workgroupId, localId, globalId);
    if (program.elementsPerInvocation() != 1) {
      throw new Unsupported("a vectorized program");
    }
  }

  int slot(PrimType type) {
    int slot = nextSlot;
    nextSlot += type == PrimType.LONG || type == PrimType.DOUBLE ? 2 : 1;
    return slot;
  }

  /**
   * Where {@code condition} gates a fused group's arm, notes that its code runs: its faults are
   * that arm's (Java runs the arms one after the other). A twin's IR keeps the arms' gates; a
   * module's vectorized IR does not, so the SPIR-V writer takes the arm from the checks' sites
   * instead.
   */
  void enterArm(Expr condition) {
    if (condition instanceof Expr.InLaunch gate && program.arms() > 1) {
      push(mv, gate.arm());
      mv.visitVarInsn(ISTORE, arm);
    }
  }

  int intSlot(int initial) {
    int slot = nextSlot++;
    push(mv, initial);
    mv.visitVarInsn(ISTORE, slot);
    return slot;
  }

  int referenceSlot() {
    int slot = nextSlot++;
    mv.visitInsn(ACONST_NULL);
    mv.visitVarInsn(ASTORE, slot);
    return slot;
  }

  void argument(String name) {
    Integer index = argIndex.get(name);
    if (index == null) {
      throw new Unsupported("no parameter named " + name);
    }
    mv.visitVarInsn(ALOAD, ARGS);
    push(mv, index);
    mv.visitInsn(AALOAD);
  }

  void unbox(PrimType type) {
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

  int newArray(PrimType element, int length) {
    int slot = nextSlot++;
    push(mv, length);
    newArrayOf(element);
    mv.visitVarInsn(ASTORE, slot);
    return slot;
  }

  void newArrayOf(PrimType element) {
    mv.visitIntInsn(
        NEWARRAY,
        switch (element) {
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

  /**
   * The target of a break ({@code toLoop} false: a loop or switch) or continue (a loop), by label
   * or innermost.
   */
  Target find(dev.kiln.processor.ir.Label label, boolean toLoop) {
    var it = targets.descendingIterator();
    while (it.hasNext()) {
      Target target = it.next();
      if (label != null ? label.equals(target.label()) : (target.isLoop() || !toLoop)) {
        return target;
      }
    }
    throw new Unsupported("a jump without its target");
  }

  /**
   * Jumps to {@code target}; from inside a work-item loop to a target outside it, through the jump
   * code.
   */
  void jump(Target target, boolean toContinue) {
    if (outsideSubgroups >= 0 && new ArrayList<>(targets).indexOf(target) < outsideSubgroups) {
      throw new Unsupported(
          "a break or continue out of code with subgroup operations"); // it would skip subgroups
    }
    if (outsideSubgroups >= 0 && current != null && target.workgroupLevel()) {
      // lanes of one subgroup may leave the loop in different turns, which the subgroup-level loop
      // cannot follow
      throw new Unsupported("a break or continue in a loop with subgroup operations");
    }
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

  int localSlot(Local local) {
    Integer slot = locals.get(local);
    if (slot == null) {
      throw new Unsupported("a local the program does not declare: " + local.name());
    }
    return slot;
  }

  /** Whether {@code local} is an element of an array, one for each invocation of the workgroup. */
  boolean perInvocation(Local local) {
    return cooperative && !values.isUniform(local);
  }

  /**
   * Before a local's value is pushed: its invocation's element, where locals are per invocation.
   */
  void beginLocal(Local local) {
    if (perInvocation(local)) {
      mv.visitVarInsn(ALOAD, localSlot(local));
      mv.visitVarInsn(ILOAD, invocation);
    }
  }

  void endStore(Local local) {
    if (perInvocation(local)) {
      mv.visitInsn(arrayStore(local.type()));
    } else {
      mv.visitVarInsn(store(local.type()), localSlot(local));
    }
  }

  void loadLocal(Local local) {
    Expr.BuiltinGet id = values.id(local);
    if (id != null) {
      ids.load(id.builtin(), id.axis());
    } else if (perInvocation(local)) {
      mv.visitVarInsn(ALOAD, localSlot(local));
      mv.visitVarInsn(ILOAD, invocation);
      mv.visitInsn(arrayLoad(local.type()));
    } else {
      mv.visitVarInsn(load(local.type()), localSlot(local));
    }
  }

  /**
   * Pushes the Java array behind {@code array}: a buffer, the workgroup's array, or the
   * invocation's own.
   */
  void array(ArrayDecl array) {
    Integer slot = arrays.get(array.name());
    if (slot == null) {
      throw new Unsupported("an array the program does not declare: " + array.name());
    }
    mv.visitVarInsn(ALOAD, slot);
    if (cooperative && array instanceof PrivateArray) {
      mv.visitVarInsn(ILOAD, invocation);
      mv.visitInsn(AALOAD);
    }
  }

  /**
   * Records the access about to run: its array and line, the array and index {@link #keep} kept;
   * the line also goes into the method's line table from here on.
   */
  void at(ArrayDecl array, int line, int[] kept) {
    begin(CpuFaults.site(array.name(), array instanceof BufferDecl, line), line, kept);
  }

  /**
   * Records the copy about to run ({@code System.arraycopy} from {@code source} to {@code target}),
   * its {@code source} array kept in {@code kept}: a fault names the side its message names.
   */
  void atCopy(ArrayDecl source, ArrayDecl target, int line, int[] kept) {
    begin(
        CpuFaults.copySite(
            source.name(),
            source instanceof BufferDecl,
            target.name(),
            target instanceof BufferDecl,
            line),
        line,
        kept);
  }

  /**
   * Begins an access: its line in the line table, its line of the access table, its array and index
   * kept.
   */
  private void begin(String siteLine, int line, int[] kept) {
    org.objectweb.asm.Label here = new org.objectweb.asm.Label();
    mv.visitLabel(here);
    mv.visitLineNumber(line, here); // a fault's stack trace names the kernel's line
    siteTable.append(siteLine);
    push(mv, sites++);
    mv.visitVarInsn(ISTORE, site);
    mv.visitVarInsn(ALOAD, kept[0]);
    mv.visitVarInsn(ASTORE, accessArray);
    mv.visitVarInsn(ILOAD, kept[1]);
    mv.visitVarInsn(ISTORE, accessIndex);
  }

  /**
   * Evaluates {@code index} and takes {@code array} (the Java array behind it), keeping both in
   * fresh locals rather than on the stack; returns their slots. Java evaluates an access's array
   * and index before the rest of it, and a fault names them: the JIT may throw its own exceptions
   * without a message once a site is hot. The index goes first, on an empty stack, in case it runs
   * a loop ({@code TwinCode.operands}); taking the array has no effects to order.
   */
  int[] keep(ArrayDecl array, Runnable index) {
    int[] kept = {nextSlot++, nextSlot++};
    index.run();
    mv.visitVarInsn(ISTORE, kept[1]);
    array(array);
    mv.visitVarInsn(ASTORE, kept[0]);
    return kept;
  }

  /**
   * Evaluates an index with {@code index} and checks it as an index into a local array of {@code
   * length} elements at {@code line}, as Java checks one dimension of a private array of two or
   * three; leaves it on the stack.
   */
  void checkedIndex(int length, int line, Runnable index) {
    int[] kept = {nextSlot++, nextSlot++};
    index.run();
    mv.visitVarInsn(ISTORE, kept[1]);
    mv.visitVarInsn(ALOAD, extents.get(length));
    mv.visitVarInsn(ASTORE, kept[0]);
    begin(CpuFaults.site("", false, line), line, kept);
    pushKept(kept);
    mv.visitInsn(BALOAD);
    mv.visitInsn(POP);
    mv.visitVarInsn(ILOAD, kept[1]);
  }

  /** Pushes the array and index {@link #keep} kept. */
  void pushKept(int[] kept) {
    mv.visitVarInsn(ALOAD, kept[0]);
    mv.visitVarInsn(ILOAD, kept[1]);
  }

  void markReturned() {
    mv.visitVarInsn(ALOAD, done);
    mv.visitVarInsn(ILOAD, invocation);
    mv.visitInsn(ICONST_1);
    mv.visitInsn(BASTORE);
    mv.visitIincInsn(doneCount, 1);
  }
}
