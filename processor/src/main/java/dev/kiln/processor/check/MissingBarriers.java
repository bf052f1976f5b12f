package dev.kiln.processor.check;

import dev.kiln.processor.analysis.IndexBounds;
import dev.kiln.processor.analysis.WorkgroupMeeting;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Accesses of a workgroup array that two invocations of a workgroup may make to one element between
 * the same two barriers, one of them a write: a missing {@code Gpu.barrier()} ({@code
 * kiln.race.barrier}, a warning). The body is walked in order; the state says, for each barrier
 * interval the path may be in (each barrier starts one), which accesses a path reaching here made
 * in it since it began. A new access pairs with those: one invocation may be there while another,
 * slower, is here. A loop runs to a fixed point, so the end of one turn meets the start of the next
 * unless a barrier parts them; a barrier at the end of a loop's body leaves nothing for the next
 * turn or what follows the loop, so the tree sum's {@code t[0]} read after its loop pairs with no
 * write (every path from a write there passes the barrier). The two sides of a condition that may
 * differ between the invocations ({@link BarrierUniformity}) run side by side: their accesses pair
 * across; those of a uniform one do not, as the whole workgroup takes one side. What an invocation
 * did before it left early ({@code return}, or {@code break} under such a condition; for an inlined
 * helper's {@code return}, a run-once block's {@code break} that goes on right after the block,
 * what it did inside the block) pairs with every access of its interval.
 *
 * <p>A pair is reported where {@link IndexBounds#workgroupMeeting} finds that the two indices may
 * meet for two invocations, the locals they share taken as equal only where they are the same for
 * the whole workgroup and unchanged in the interval once it has made an access: affine indices by
 * their forms, and functions of the local id (masks, remainders, xor: {@code t[(l + 1) & 63]},
 * {@code t[l ^ 1]}) by trying every pair of invocations. Two atomics never race; an update of one
 * element ({@code t[j] += v}) and a store racing with itself are {@link RacyUpdates}'s. The warning
 * is on the later access of a pair, naming the earlier.
 */
final class MissingBarriers {
  /** An access of a workgroup array: its node, what it does, and its order in the walk. */
  private record Access(
      Object node, SharedArray array, Expr index, Kind kind, Site site, int order) {}

  private enum Kind {
    READ("read"),
    WRITE("write"),
    ATOMIC("atomic update");

    final String text;

    Kind(String text) {
      this.text = text;
    }
  }

  /** Where a jump goes: a loop (or run-once block) or a switch, with the states that jump there. */
  private static final class Target {
    final Stmt statement;
    final Label label;
    final IntervalState entry;
    IntervalState breaks = IntervalState.DEAD;
    IntervalState continues = IntervalState.DEAD;

    Target(Stmt statement, Label label, IntervalState entry) {
      this.statement = statement;
      this.label = label;
      this.entry = entry;
    }
  }

  /**
   * Two accesses (by order, the first the earlier) that may run side by side in an interval, and
   * the locals whose values may differ between them; null for those the interval assigns anywhere
   * after an access (the sides of a branch, what an invocation that left did).
   */
  private record Pair(int first, int second, int interval) {
    static Pair of(int a, int b, int interval) {
      return new Pair(Math.min(a, b), Math.max(a, b), interval);
    }
  }

  private final IndexBounds bounds;
  private final Set<Local> varying;
  private final Predicate<Expr> uniform;
  private final Map<Stmt.Barrier, Integer> barriers = new IdentityHashMap<>();
  private final Map<Object, Access> accesses = new IdentityHashMap<>();
  private final List<Access> inOrder = new ArrayList<>();
  private final Map<Integer, Set<Integer>> inInterval = new HashMap<>();

  /**
   * Each pair, with the locals that may differ between its accesses; empty where not followed: any
   * the interval assigns after an access.
   */
  private final Map<Pair, Optional<Set<Local>>> pairs = new LinkedHashMap<>();

  /** Per interval, the accesses of invocations that may have left it early. */
  private final Map<Integer, Set<Integer>> leftEarly = new HashMap<>();

  /** Whether control reaching the statement walked is the same for the whole workgroup. */
  private boolean uniformControl = true;

  /**
   * Per interval, the locals assigned in it after it made an access: their values may differ
   * between accesses.
   */
  private final Map<Integer, Set<Local>> unstable = new HashMap<>();

  private final Deque<Target> targets = new ArrayDeque<>();

  private MissingBarriers(IndexBounds bounds, Program program) {
    this.bounds = bounds;
    this.varying = BarrierUniformity.varyingLocals(program);
    this.uniform = BarrierUniformity.workgroupUniform(program);
  }

  /** The warnings of {@code program}, whose index bounds are {@code bounds}. */
  static List<CheckError> find(Program program, IndexBounds bounds) {
    if (program.shared().isEmpty()) {
      return List.of();
    }
    MissingBarriers check = new MissingBarriers(bounds, program);
    check.block(program.body(), IntervalState.start(0));
    return check.warnings();
  }

  private List<CheckError> warnings() {
    leftEarly.forEach(
        (interval, left) ->
            left.forEach(
                early ->
                    inInterval
                        .getOrDefault(interval, Set.of())
                        .forEach(other -> pair(early, other, interval, null))));
    Set<List<Integer>> warned = new HashSet<>();
    List<CheckError> warnings = new ArrayList<>();
    List<Pair> sorted =
        pairs.keySet().stream()
            .sorted(Comparator.comparingInt(Pair::second).thenComparingInt(Pair::first))
            .toList();
    for (Pair pair : sorted) {
      Access first = inOrder.get(pair.first());
      Access second = inOrder.get(pair.second());
      Set<Local> changed =
          pairs.get(pair).orElseGet(() -> unstable.getOrDefault(pair.interval(), Set.of()));
      if (!warned.contains(List.of(first.order(), second.order()))
          && contend(first, second)
          && bounds.workgroupMeeting(
                  first.index(),
                  second.index(),
                  local -> !changed.contains(local),
                  local -> !varying.contains(local))
              == WorkgroupMeeting.Outcome.MAY_MEET) {
        warned.add(List.of(first.order(), second.order()));
        warnings.add(
            new CheckError(
                second.site(),
                Errors.raceBarrier(
                    second.kind().text,
                    second.array().name(),
                    first.kind().text,
                    first.site().line())));
      }
    }
    return warnings;
  }

  /**
   * Records a pair; {@code changed}: the locals that may differ between its accesses, null for any
   * the interval assigns after an access.
   */
  private void pair(int a, int b, int interval, Set<Local> changed) {
    if (a == b) {
      return;
    }
    pairs.merge(
        Pair.of(a, b, interval),
        Optional.ofNullable(changed),
        (had, more) -> {
          if (had.isEmpty() || more.isEmpty()) {
            return Optional.empty();
          }
          Set<Local> both = new HashSet<>(had.get());
          both.addAll(more.get());
          return Optional.of(both);
        });
  }

  /**
   * The accesses each side made, paired across sides: the sides of a condition that may differ
   * between invocations run side by side.
   */
  private void acrossSides(IntervalState entry, List<IntervalState> sides) {
    for (int i = 0; i < sides.size(); i++) {
      for (int j = i + 1; j < sides.size(); j++) {
        for (int interval : sides.get(i).intervals().keySet()) {
          for (int a : sides.get(i).since(entry, interval)) {
            for (int b : sides.get(j).since(entry, interval)) {
              pair(a, b, interval, null);
            }
          }
        }
      }
    }
  }

  /**
   * What the path made in each interval since {@code from}, kept for every access there: the
   * invocation left.
   */
  private void leaving(IntervalState state, IntervalState from) {
    if (!uniformControl) {
      for (int interval : state.intervals().keySet()) {
        leftEarly
            .computeIfAbsent(interval, i -> new TreeSet<>())
            .addAll(state.since(from, interval));
      }
    }
  }

  /**
   * Whether two accesses (two nodes) of one array could race: one writes, or one is atomic and the
   * other not; an update of one element is {@link RacyUpdates}'s.
   */
  private static boolean contend(Access first, Access second) {
    boolean writes = first.kind() == Kind.WRITE || second.kind() == Kind.WRITE;
    boolean oneAtomic = (first.kind() == Kind.ATOMIC) != (second.kind() == Kind.ATOMIC);
    return first.array() == second.array()
        && (writes || oneAtomic)
        && !update(first, second)
        && !update(second, first);
  }

  /**
   * Whether {@code store} stores a value that reads the element it writes through {@code load}:
   * {@code t[j] += v}.
   */
  private static boolean update(Access store, Access load) {
    if (!(store.node() instanceof Stmt.Store written)
        || !(load.node() instanceof Expr.Load read)
        || !read.index().equals(written.index())) {
      return false;
    }
    boolean[] inside = {false};
    Walk.expression(written.value(), e -> inside[0] |= e == read);
    return inside[0];
  }

  private IntervalState block(List<Stmt> body, IntervalState state) {
    for (Stmt statement : body) {
      state = statement(statement, state);
    }
    return state;
  }

  private IntervalState statement(Stmt statement, IntervalState state) {
    return switch (statement) {
      case Stmt.Assign assign -> assigned(assign.local(), expression(assign.value(), state));
      case Stmt.Store store -> {
        IntervalState after = expression(store.value(), expression(store.index(), state));
        yield access(store, store.array(), store.index(), Kind.WRITE, store.site(), after);
      }
      case Stmt.Atomic atomic -> {
        IntervalState after = expression(atomic.index(), state);
        after = expression(atomic.value(), after);
        if (atomic.expected() != null) {
          after = expression(atomic.expected(), after);
        }
        after = access(atomic, atomic.array(), atomic.index(), Kind.ATOMIC, atomic.site(), after);
        yield atomic.result() == null ? after : assigned(atomic.result(), after);
      }
      case Stmt.Barrier barrier ->
          IntervalState.start(barriers.computeIfAbsent(barrier, b -> barriers.size() + 1));
      case Stmt.Matrix
              matrix -> { // a tile in workgroup memory: an access at its first element, marked a
        // tile
        IntervalState after = state;
        for (Expr scalar : matrix.op().scalars()) {
          after = expression(scalar, after);
        }
        yield switch (matrix.op()) {
          case MatrixOp.Load load ->
              access(matrix, load.array(), load.offset(), Kind.READ, matrix.site(), after);
          case MatrixOp.Store store ->
              access(matrix, store.array(), store.offset(), Kind.WRITE, matrix.site(), after);
          default -> after;
        };
      }
      case Stmt.Copy
              copy -> { // like a tile: each side an access at its first element (the read's node
        // its index)
        IntervalState after = expression(copy.targetIndex(), expression(copy.sourceIndex(), state));
        after =
            access(
                copy.sourceIndex(),
                copy.source(),
                copy.sourceIndex(),
                Kind.READ,
                copy.site(),
                after);
        yield access(copy, copy.target(), copy.targetIndex(), Kind.WRITE, copy.site(), after);
      }
      case Stmt.If branch -> {
        IntervalState tested = expression(branch.condition(), state);
        boolean outer = uniformControl;
        boolean sideBySide = !uniform.test(branch.condition());
        uniformControl = outer && !sideBySide;
        IntervalState then = block(branch.then(), tested);
        IntervalState otherwise = block(branch.otherwise(), tested);
        uniformControl = outer;
        if (sideBySide) {
          acrossSides(tested, List.of(then, otherwise));
        }
        yield then.merge(otherwise);
      }
      case Stmt.Loop loop -> loop(loop, state);
      case Stmt.Switch choice -> {
        IntervalState entry = expression(choice.selector(), state);
        Target target = new Target(choice, null, state);
        targets.push(target);
        boolean outer = uniformControl;
        boolean sideBySide = !uniform.test(choice.selector());
        uniformControl = outer && !sideBySide;
        IntervalState fallingThrough = IntervalState.DEAD;
        List<IntervalState> sides = new ArrayList<>();
        for (Stmt.Case branch : choice.cases()) {
          fallingThrough = block(branch.body(), entry.merge(fallingThrough));
          sides.add(fallingThrough.merge(target.breaks));
        }
        uniformControl = outer;
        if (sideBySide) {
          acrossSides(entry, sides);
        }
        targets.pop();
        boolean hasDefault = choice.cases().stream().anyMatch(Stmt.Case::isDefault);
        yield fallingThrough.merge(target.breaks).merge(hasDefault ? IntervalState.DEAD : entry);
      }
      case Stmt.Break jump -> {
        Target target = target(jump.label(), true);
        target.breaks = target.breaks.merge(state);
        // a run-once block's break (a helper's return) goes on right after the block: only what
        // the path made inside it may meet what the others still make there
        leaving(
            state,
            target.statement instanceof Stmt.Loop loop && runsOnce(loop)
                ? target.entry
                : IntervalState.DEAD);
        yield IntervalState.DEAD;
      }
      case Stmt.Continue jump -> {
        Target target = target(jump.label(), false);
        target.continues = target.continues.merge(state);
        yield IntervalState.DEAD;
      }
      case Stmt.Return ret -> {
        leaving(state, IntervalState.DEAD);
        yield IntervalState.DEAD;
      }
      case Stmt.VectorLoad load -> expression(load.vector(), state);
      case Stmt.VectorStore store -> {
        IntervalState after = expression(store.vector(), state);
        for (Expr lane : store.lanes()) {
          after = expression(lane, after);
        }
        yield after;
      }
      case Stmt.DeclareShared declare -> state;
      case Stmt.ClearArray clear -> state;
      case Stmt.Call call -> throw call.unlinked();
    };
  }

  /** Whether {@code loop} is a run-once block ({@link Stmt.Loop#once}). */
  private static boolean runsOnce(Stmt.Loop loop) {
    return !loop.testFirst() && loop.condition() instanceof Expr.BoolConst(boolean again) && !again;
  }

  /**
   * A loop, run until the intervals at its top stop growing: what the end of an iteration is in,
   * the next one starts in. A run-once block ({@link Stmt.Loop#once}) runs once.
   */
  private IntervalState loop(Stmt.Loop loop, IntervalState state) {
    Target target = new Target(loop, loop.label(), state);
    targets.push(target);
    boolean once = runsOnce(loop);
    boolean outer = uniformControl;
    uniformControl = outer && uniform.test(loop.condition());
    IntervalState top = state;
    IntervalState exit;
    while (true) {
      target.breaks = IntervalState.DEAD;
      target.continues = IntervalState.DEAD;
      IntervalState entered = loop.testFirst() ? expression(loop.condition(), top) : top;
      IntervalState end = block(loop.update(), block(loop.body(), entered).merge(target.continues));
      IntervalState tested = loop.testFirst() ? end : expression(loop.condition(), end);
      IntervalState next = state.merge(tested);
      if (once || next.equals(top)) {
        exit = (loop.testFirst() ? entered : tested).merge(target.breaks);
        break;
      }
      top = next;
    }
    targets.pop();
    uniformControl = outer;
    return exit;
  }

  /**
   * The loop or switch a jump goes to: the one labelled {@code label}, or the innermost (a switch
   * only for a break).
   */
  private Target target(Label label, boolean isBreak) {
    for (Target target : targets) {
      if (label != null
          ? target.label == label
          : isBreak || target.statement instanceof Stmt.Loop) {
        return target;
      }
    }
    throw new IllegalStateException("a jump to " + label + " outside its loop");
  }

  /**
   * The expression's accesses, in the order Java evaluates them, and the statements of its effects.
   */
  private IntervalState expression(Expr expression, IntervalState state) {
    return switch (expression) {
      case Expr.Load load -> {
        IntervalState after = expression(load.index(), state);
        yield load.array() instanceof SharedArray shared
            ? access(load, shared, load.index(), Kind.READ, load.site(), after)
            : after;
      }
      case Expr.Effect effect -> expression(effect.value(), block(effect.statements(), state));
      case Expr.Conditional conditional -> {
        IntervalState tested = expression(conditional.condition(), state);
        boolean outer = uniformControl;
        boolean sideBySide = !uniform.test(conditional.condition());
        uniformControl = outer && !sideBySide;
        IntervalState then = expression(conditional.then(), tested);
        IntervalState otherwise = expression(conditional.otherwise(), tested);
        uniformControl = outer;
        if (sideBySide) {
          acrossSides(tested, List.of(then, otherwise));
        }
        yield then.merge(otherwise);
      }
      case Expr.Let let ->
          expression(let.body(), assigned(let.local(), expression(let.value(), state)));
      default -> {
        IntervalState after = state;
        for (Expr child : Walk.children(expression)) {
          after = expression(child, after);
        }
        yield after;
      }
    };
  }

  private IntervalState access(
      Object node, ArrayDecl array, Expr index, Kind kind, Site site, IntervalState state) {
    if (!(array instanceof SharedArray shared) || state.intervals().isEmpty()) {
      return state;
    }
    Access access =
        accesses.computeIfAbsent(
            node,
            n -> {
              Access made = new Access(n, shared, index, kind, site, inOrder.size());
              inOrder.add(made);
              return made;
            });
    state
        .intervals()
        .forEach(
            (interval, made) -> {
              made.forEach((earlier, since) -> pair(earlier, access.order(), interval, since));
              inInterval.computeIfAbsent(interval, i -> new TreeSet<>()).add(access.order());
            });
    return state.with(access.order());
  }

  private IntervalState assigned(Local local, IntervalState state) {
    state
        .intervals()
        .forEach(
            (interval, made) -> {
              if (!made.isEmpty()) {
                unstable.computeIfAbsent(interval, i -> new HashSet<>()).add(local);
              }
            });
    return state.assigning(local);
  }
}
