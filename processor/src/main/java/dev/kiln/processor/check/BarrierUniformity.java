package dev.kiln.processor.check;

import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Every invocation of a workgroup must reach each barrier, or what the GPU does is undefined. A
 * barrier is accepted only in uniform control flow: not under a condition, loop test or switch
 * selector that may differ between the invocations of a workgroup, not in a loop that some
 * invocations may leave or skip through early, and not after a {@code return} that only some take.
 *
 * <p>Uniform values: constants, scalar parameters, buffer lengths, workgroup ids and counts, loads
 * at a uniform index of a buffer the program never writes (a launch may pass its array for no
 * written buffer: {@code AliasConflicts} pairs a buffer read at any index but the invocation's own
 * with every written one, so nothing changes it while the program runs), and locals whose every
 * assignment is a uniform value in uniform control flow (found as a fixed point). Other loads,
 * atomics, global, local and subgroup ids are taken to vary between invocations.
 *
 * <p>The same walk, for the lanes of a subgroup, finds the subgroup operations that only some lanes
 * may reach ({@code kiln.subgroup.divergent}, a warning: the GPU defines them, over the lanes that
 * arrive, but which arrive depends on how it reconverges them). There the subgroup's id, size and
 * count and the results of reductions, broadcasts, ballots and votes are uniform too, and a {@code
 * return} only makes its lanes inactive.
 *
 * <p>A cooperative-matrix operation needs every lane of its subgroup, with the same operands: one
 * under varying control, after a {@code return} only some lanes take, or with an operand that may
 * differ between lanes is an error ({@code kiln.matrix.divergent}, {@code kiln.matrix.operand}).
 */
public final class BarrierUniformity {
  /**
   * The invocations that must agree: a workgroup's, for barriers; a subgroup's lanes, for the
   * subgroup operations' warnings; a subgroup's lanes, all of them, for cooperative matrices.
   */
  private enum Scope {
    WORKGROUP,
    SUBGROUP,
    MATRIX
  }

  private final Scope scope;

  /** The arrays the program writes: a load of any other buffer is the same for all who make it. */
  private final Set<String> written;

  private final Set<Local> varying = new HashSet<>();
  private final List<CheckError> errors = new ArrayList<>();

  /** Whether some invocations have returned already, on the path being walked. */
  private boolean someReturned;

  private BarrierUniformity(Scope scope, Program program) {
    this.scope = scope;
    this.written = Walk.writtenArrays(program.body());
  }

  public static List<CheckError> check(Program program) {
    if (!Walk.anyStatement(program.body(), statement -> statement instanceof Stmt.Barrier)) {
      return List.of();
    }
    return walk(program, Scope.WORKGROUP);
  }

  /**
   * The warnings for subgroup operations under control flow that may differ between the lanes of a
   * subgroup.
   *
   * @param program the lowered program
   * @return the warnings, at the operations
   */
  public static List<CheckError> subgroupWarnings(Program program) {
    if (!Walk.anyExpression(
        program.body(), e -> e instanceof Expr.Call call && call.function().combinesLanes())) {
      return List.of();
    }
    return walk(program, Scope.SUBGROUP);
  }

  /**
   * The errors for cooperative-matrix operations that not every lane of a subgroup may reach, or
   * whose operands may differ between its lanes.
   *
   * @param program the lowered program
   * @return the errors, at the operations
   */
  public static List<CheckError> matrixErrors(Program program) {
    if (!Walk.anyStatement(program.body(), statement -> statement instanceof Stmt.Matrix)) {
      return List.of();
    }
    return walk(program, Scope.MATRIX);
  }

  private static List<CheckError> walk(Program program, Scope scope) {
    BarrierUniformity check = new BarrierUniformity(scope, program);
    check.varying.addAll(
        varyingLocals(program, scope)); // locals that vary make more locals vary: a fixed point
    check.someReturned = false;
    check.statements(program.body(), true, true);
    return check.errors;
  }

  /**
   * The locals whose value may differ between the invocations of a workgroup where it is read (the
   * complement of the uniform ones above).
   */
  static Set<Local> varyingLocals(Program program) {
    return varyingLocals(program, Scope.WORKGROUP);
  }

  /**
   * Whether an expression of {@code program} has one value for every invocation of a workgroup
   * where it is evaluated.
   */
  static Predicate<Expr> workgroupUniform(Program program) {
    BarrierUniformity check = new BarrierUniformity(Scope.WORKGROUP, program);
    check.varying.addAll(varyingLocals(program, Scope.WORKGROUP));
    return check::isUniform;
  }

  private static Set<Local> varyingLocals(Program program, Scope scope) {
    BarrierUniformity walk = new BarrierUniformity(scope, program);
    int known;
    do {
      known = walk.varying.size();
      walk.someReturned = false;
      walk.statements(program.body(), true, false);
    } while (walk.varying.size() != known);
    return Set.copyOf(walk.varying);
  }

  /**
   * Walks {@code body}; {@code uniform}: whether control reaching it is the same for the whole
   * workgroup.
   */
  private void statements(List<Stmt> body, boolean uniform, boolean report) {
    for (Stmt statement : body) {
      statement(statement, uniform && (scope == Scope.SUBGROUP || !someReturned), report);
    }
  }

  private void statement(Stmt statement, boolean uniform, boolean report) {
    if (!(statement instanceof Stmt.Loop)) { // a loop's condition runs in the loop: below
      for (Expr own : Walk.ownExpressions(statement)) {
        effects(own, uniform, report);
      }
    }
    switch (statement) {
      case Stmt.Assign assign -> {
        if (!uniform || !isUniform(assign.value())) {
          varying.add(assign.local());
        }
      }
      case Stmt.Atomic atomic -> {
        if (atomic.result() != null) {
          varying.add(atomic.result());
        }
      }
      case Stmt.Barrier barrier -> {
        if (report && !uniform && barrier.site() != null && scope == Scope.WORKGROUP) {
          errors.add(new CheckError(barrier.site(), Errors.barrierDivergent()));
        }
      }
      case Stmt.If branch -> {
        boolean inner = uniform && isUniform(branch.condition());
        statements(branch.then(), inner, report);
        statements(branch.otherwise(), inner, report);
      }
      case Stmt.Loop loop -> {
        boolean inner = uniform && isUniform(loop.condition()) && !leavesDivergently(loop);
        effects(loop.condition(), inner, report);
        statements(loop.body(), inner, report);
        statements(loop.update(), inner, report);
      }
      case Stmt.Switch choice -> {
        boolean inner = uniform && isUniform(choice.selector());
        choice.cases().forEach(c -> statements(c.body(), inner, report));
      }
      case Stmt.Return ret -> someReturned |= !uniform;
      case Stmt.Call call -> throw call.unlinked();
      case Stmt.Matrix matrix -> {
        if (report && scope == Scope.MATRIX) {
          if (!uniform) {
            errors.add(new CheckError(matrix.site(), Errors.matrixDivergent()));
          } else if (!matrix.op().scalars().stream().allMatch(this::isUniform)) {
            errors.add(new CheckError(matrix.site(), Errors.matrixOperand()));
          }
        }
      }
      case Stmt.Store store -> {}
      case Stmt.Copy copy -> {}
      case Stmt.ClearArray clear -> {}
      case Stmt.DeclareShared declare -> {}
      case Stmt.VectorLoad load -> varying.addAll(load.lanes());
      case Stmt.VectorStore store -> {}
      case Stmt.Break jump -> {}
      case Stmt.Continue jump -> {}
    }
  }

  /**
   * Walks the statements of the effects inside {@code expression} (inlined helpers, switch
   * expressions with statement cases) where they run: a side of a {@code ?:}, {@code &&} or {@code
   * ||} runs under its condition.
   */
  private void effects(Expr expression, boolean uniform, boolean report) {
    switch (expression) {
      case Expr.Effect effect -> {
        statements(effect.statements(), uniform, report);
        effects(effect.value(), uniform, report);
      }
      case Expr.Conditional conditional -> {
        effects(conditional.condition(), uniform, report);
        boolean chosen = uniform && isUniform(conditional.condition());
        effects(conditional.then(), chosen, report);
        effects(conditional.otherwise(), chosen, report);
      }
      case Expr.Call call when scope == Scope.SUBGROUP && call.function().combinesLanes() -> {
        if (report && !uniform && call.site() != null) {
          errors.add(
              new CheckError(call.site(), Errors.subgroupDivergent(javaName(call.function()))));
        }
        Walk.children(expression).forEach(child -> effects(child, uniform, report));
      }
      default -> Walk.children(expression).forEach(child -> effects(child, uniform, report));
    }
  }

  /**
   * Whether some invocations may leave the loop, or go on to its next iteration, while others do
   * not: a break, continue or return in it under a condition that may vary.
   */
  private boolean leavesDivergently(Stmt.Loop loop) {
    return jumpsOut(loop.body(), true, true, true, Set.of())
        || jumpsOut(loop.update(), true, true, true, Set.of());
  }

  /**
   * Whether {@code body} holds a jump out of the loop being asked about under varying control;
   * {@code breaks} and {@code continues}: whether an unlabelled one targets that loop here (not a
   * nested loop or switch); {@code nested}: the labels of the loops nested in it that enclose
   * {@code body}. A labelled jump leaves it unless it targets one of those (an inlined helper's
   * {@code return} breaks out of the helper's own run-once loop only).
   */
  private boolean jumpsOut(
      List<Stmt> body, boolean uniform, boolean breaks, boolean continues, Set<Label> nested) {
    for (Stmt statement : body) {
      boolean jumps =
          switch (statement) {
            case Stmt.Break jump ->
                !uniform && (jump.label() == null ? breaks : !nested.contains(jump.label()));
            case Stmt.Continue jump ->
                !uniform && (jump.label() == null ? continues : !nested.contains(jump.label()));
            case Stmt.Return r -> !uniform;
            case Stmt.Call call -> throw call.unlinked();
            case Stmt.If branch ->
                jumpsOut(
                        branch.then(),
                        uniform && isUniform(branch.condition()),
                        breaks,
                        continues,
                        nested)
                    || jumpsOut(
                        branch.otherwise(),
                        uniform && isUniform(branch.condition()),
                        breaks,
                        continues,
                        nested);
            case Stmt.Loop inner -> {
              Set<Label> enclosing = new HashSet<>(nested);
              if (inner.label() != null) {
                enclosing.add(inner.label());
              }
              boolean innerUniform = uniform && isUniform(inner.condition());
              yield jumpsOut(inner.body(), innerUniform, false, false, enclosing)
                  || jumpsOut(inner.update(), innerUniform, false, false, enclosing);
            }
            case Stmt.Switch choice ->
                choice.cases().stream()
                    .anyMatch(
                        c ->
                            jumpsOut(
                                c.body(),
                                uniform && isUniform(choice.selector()),
                                false,
                                continues,
                                nested));
            case Stmt.Assign a -> false;
            case Stmt.Store s -> false;
            case Stmt.Copy c -> false;
            case Stmt.Atomic a -> false;
            case Stmt.Barrier b -> false;
            case Stmt.ClearArray c -> false;
            case Stmt.DeclareShared d -> false;
            case Stmt.VectorLoad v -> false;
            case Stmt.VectorStore v -> false;
            case Stmt.Matrix m -> false;
          };
      if (jumps) {
        return true;
      }
    }
    return false;
  }

  private boolean isUniform(Expr expression) {
    if (scope != Scope.WORKGROUP
        && expression instanceof Expr.Call call
        && call.function().isSubgroup()
        && !variesInSubgroup(call.function())) {
      return true; // a reduction, broadcast, ballot or vote: one value for the subgroup, whatever
      // its operand
    }
    return isUniformNode(expression)
        && Walk.children(expression).stream().allMatch(this::isUniform);
  }

  /**
   * Whether {@code node} itself, its operands aside, gives the same value to every invocation of
   * the scope.
   */
  private boolean isUniformNode(Expr node) {
    return switch (node) {
      case Expr.LocalGet get -> !varying.contains(get.local());
      case Expr.BuiltinGet get ->
          get.builtin() == Builtin.WORKGROUP_ID || get.builtin() == Builtin.NUM_WORKGROUPS;
      case Expr.Load load ->
          load.array() instanceof BufferDecl buffer && !written.contains(buffer.name());
      case Expr.Checked checked -> true;
      case Expr.Call call ->
          scope == Scope.WORKGROUP
              ? !isPerInvocation(call.function())
              : !variesInSubgroup(call.function());
      case Expr.InLaunch gate -> gate.wholeWorkgroups();
      case Expr.IntConst c -> true;
      case Expr.FloatConst c -> true;
      case Expr.LongConst c -> true;
      case Expr.DoubleConst c -> true;
      case Expr.BoolConst c -> true;
      case Expr.ScalarGet get -> true;
      case Expr.Length length -> true;
      case Expr.ArmWorkgroups workgroups -> true;
      case Expr.LaunchCount count -> true;
      case Expr.Unary unary -> true;
      case Expr.Binary binary -> true;
      case Expr.Convert convert -> true;
      case Expr.Conditional conditional -> true;
      case Expr.Let let -> true; // its local is as uniform as its value, which the walk visits
      case Expr.Effect effect ->
          true; // the locals its statements assign are in varying if they vary
    };
  }

  /**
   * Subgroup operations give each invocation (or subgroup) its own value; the size and count are
   * the workgroup's.
   */
  private static boolean isPerInvocation(Intrinsic function) {
    return function.isSubgroup()
        && function != Intrinsic.SUBGROUP_SIZE
        && function != Intrinsic.NUM_SUBGROUPS;
  }

  /**
   * Whether the lanes of one subgroup may get different values: their ids, shuffles, scans,
   * clusters and elect.
   */
  private static boolean variesInSubgroup(Intrinsic function) {
    return switch (function) {
      case SUBGROUP_INVOCATION,
          SUBGROUP_SHUFFLE,
          SUBGROUP_SHUFFLE_XOR,
          SUBGROUP_SHUFFLE_UP,
          SUBGROUP_SHUFFLE_DOWN,
          SUBGROUP_INCLUSIVE_ADD,
          SUBGROUP_EXCLUSIVE_ADD,
          SUBGROUP_CLUSTERED_ADD,
          SUBGROUP_CLUSTERED_MIN,
          SUBGROUP_CLUSTERED_MAX,
          SUBGROUP_ELECT,
          SUBGROUP_PARTITION,
          SUBGROUP_PARTITIONED_ADD,
          SUBGROUP_PARTITIONED_MIN,
          SUBGROUP_PARTITIONED_MAX ->
          true;
      default -> false;
    };
  }

  /** The {@code Gpu} method of a subgroup operation: SUBGROUP_SHUFFLE_XOR is subgroupShuffleXor. */
  private static String javaName(Intrinsic function) {
    StringBuilder name = new StringBuilder();
    for (String word : function.name().toLowerCase(java.util.Locale.ROOT).split("_")) {
      name.append(
          name.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
    }
    return name.toString();
  }
}
