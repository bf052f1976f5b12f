package dev.kiln.processor.cpu;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The locals of a twin that runs workgroup by workgroup ({@link TwinRegions}) which need no element
 * per invocation:
 *
 * <ul>
 *   <li><b>ids</b>: every write stores the same id ({@code int l = Gpu.localId(0)}), so a read is
 *       the id and a write nothing (Java's definite assignment keeps reads after the first write);
 *   <li><b>workgroup values</b>: every write stands at workgroup level (a statement of the body, or
 *       of an {@code if} or loop that holds a barrier, not inside a work-item loop) and stores a
 *       value that is the same for every invocation and cannot fault: constants, scalar parameters,
 *       buffer lengths, workgroup ids and counts, and other workgroup values, through operators
 *       that cannot throw. Such a write runs once for the workgroup, and the local is one JVM
 *       local: a tree sum's {@code stride} or a scan's {@code offset}.
 * </ul>
 *
 * A condition of a workgroup-level {@code if} or loop made of workgroup values is evaluated once
 * instead of by every invocation. Programs with subgroup operations keep every local per invocation
 * (their exchanges read locals as arrays).
 */
final class WorkgroupValues {
  private final Map<Local, Expr.BuiltinGet> ids;
  private final Set<Local> uniform;

  private WorkgroupValues(Map<Local, Expr.BuiltinGet> ids, Set<Local> uniform) {
    this.ids = ids;
    this.uniform = uniform;
  }

  static WorkgroupValues none() {
    return new WorkgroupValues(Map.of(), Set.of());
  }

  static WorkgroupValues of(Program program) {
    Map<Local, List<Stmt.Assign>> assigns = new HashMap<>();
    Set<Local> otherWrites = new HashSet<>();
    Walk.statements(
        program.body(),
        statement -> {
          switch (statement) {
            case Stmt.Assign assign ->
                assigns.computeIfAbsent(assign.local(), l -> new ArrayList<>()).add(assign);
            case Stmt.Atomic atomic when atomic.result() != null ->
                otherWrites.add(atomic.result());
            case Stmt.VectorLoad load -> otherWrites.addAll(load.lanes());
            case Stmt.Call call when call.result() != null -> otherWrites.add(call.result());
            default -> {}
          }
        });
    Walk.expressions(
        program.body(),
        e -> {
          if (e instanceof Expr.Let let) {
            otherWrites.add(let.local());
          }
        });
    Map<Local, Expr.BuiltinGet> ids = new HashMap<>();
    assigns.forEach(
        (local, writes) -> {
          if (!otherWrites.contains(local)
              && writes.getFirst().value() instanceof Expr.BuiltinGet id
              && writes.stream().allMatch(w -> w.value().equals(id))) {
            ids.put(local, id);
          }
        });
    Set<Stmt> atLevel = Collections.newSetFromMap(new IdentityHashMap<>());
    levelAssigns(program.body(), atLevel);
    Set<Local> uniform = new HashSet<>();
    assigns.forEach(
        (local, writes) -> {
          if (!otherWrites.contains(local)
              && !ids.containsKey(local)
              && writes.stream().allMatch(atLevel::contains)) {
            uniform.add(local);
          }
        });
    WorkgroupValues values = new WorkgroupValues(ids, uniform);
    for (boolean changed = true;
        changed; ) { // drop a local any of whose writes reads a dropped one
      changed =
          uniform.removeIf(
              local -> !assigns.get(local).stream().allMatch(w -> values.pure(w.value())));
    }
    return values;
  }

  /** The assignments a twin emits at workgroup level, mirroring {@link TwinRegions#region}. */
  private static void levelAssigns(List<Stmt> body, Set<Stmt> out) {
    for (Stmt statement : body) {
      if (!hasBarrier(statement)) {
        if (statement instanceof Stmt.Assign) {
          out.add(statement);
        }
        continue;
      }
      switch (statement) {
        case Stmt.If branch -> {
          levelAssigns(branch.then(), out);
          levelAssigns(branch.otherwise(), out);
        }
        case Stmt.Loop loop -> {
          levelAssigns(loop.body(), out);
          levelAssigns(loop.update(), out);
        }
        default -> {}
      }
    }
  }

  /** The id a local always holds, or null. */
  Expr.BuiltinGet id(Local local) {
    return ids.get(local);
  }

  /** Whether a local is one value for the workgroup, held once. */
  boolean isUniform(Local local) {
    return uniform.contains(local);
  }

  /** Whether {@code statement} runs once for the workgroup: a write of a workgroup value. */
  boolean runsOnce(Stmt statement) {
    return statement instanceof Stmt.Assign assign && uniform.contains(assign.local());
  }

  /** Whether {@code statement} does nothing: a write of an id local. */
  boolean isNoOp(Stmt statement) {
    return statement instanceof Stmt.Assign assign && ids.containsKey(assign.local());
  }

  /**
   * Whether {@code e} is the same for every invocation of a workgroup and cannot fault or write.
   */
  boolean pure(Expr e) {
    return switch (e) {
      case Expr.IntConst c -> true;
      case Expr.FloatConst c -> true;
      case Expr.LongConst c -> true;
      case Expr.DoubleConst c -> true;
      case Expr.BoolConst c -> true;
      case Expr.ScalarGet s -> true;
      case Expr.Length l -> true;
      case Expr.LaunchCount c -> true;
      case Expr.ArmWorkgroups w -> true;
      case Expr.BuiltinGet b -> isWorkgroupBuiltin(b);
      case Expr.LocalGet get ->
          uniform.contains(get.local())
              || ids.containsKey(get.local()) && isWorkgroupBuiltin(ids.get(get.local()));
      case Expr.Unary u -> pure(u.operand());
      case Expr.Convert c -> pure(c.value());
      case Expr.Binary b -> b.site() == null && cannotThrow(b) && pure(b.left()) && pure(b.right());
      case Expr.Conditional c -> pure(c.condition()) && pure(c.then()) && pure(c.otherwise());
      default -> false;
    };
  }

  /**
   * An integer division or remainder throws where its divisor is zero: only a nonzero constant one
   * is pure.
   */
  private static boolean cannotThrow(Expr.Binary b) {
    if (b.op() != BinaryOp.DIV && b.op() != BinaryOp.REM
        || b.type() == PrimType.FLOAT
        || b.type() == PrimType.DOUBLE) {
      return true;
    }
    return b.right() instanceof Expr.IntConst i && i.value() != 0
        || b.right() instanceof Expr.LongConst l && l.value() != 0;
  }

  private static boolean isWorkgroupBuiltin(Expr.BuiltinGet builtin) {
    return builtin.builtin() == Builtin.WORKGROUP_ID || builtin.builtin() == Builtin.NUM_WORKGROUPS;
  }

  /** Whether {@code e} reads the local id along x: directly, or through an id local. */
  boolean isLocalX(Expr e) {
    Expr.BuiltinGet id =
        switch (e) {
          case Expr.BuiltinGet b -> b;
          case Expr.LocalGet get -> ids.get(get.local());
          default -> null;
        };
    return id != null && id.builtin() == Builtin.LOCAL_ID && id.axis() == 0;
  }

  /**
   * Whether {@code statement} waits at a barrier, itself or in a statement it holds: then it runs
   * at workgroup level.
   */
  static boolean hasBarrier(Stmt statement) {
    return Walk.anyStatement(List.of(statement), s -> s instanceof Stmt.Barrier);
  }
}
