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
import java.util.Set;
import java.util.TreeMap;

/**
 * Accesses of a workgroup array that two invocations of a workgroup may make to one element between
 * the same two barriers, one of them a write: a missing {@code Gpu.barrier()} ({@code
 * kiln.race.barrier}, a warning). The body is walked in order with the set of barrier intervals the
 * path may be in: each barrier starts one, a branch joins both sides', a loop runs to a fixed
 * point, so the end of one iteration and the start of the next are one interval. For each interval,
 * a pair is reported where {@link IndexBounds#workgroupMeeting} finds that the two indices, both
 * affine, may meet for two invocations, the locals they share taken as equal only where they are
 * the same for the whole workgroup and unchanged in the interval once it has made an access; an
 * index with no affine form (a mask, a remainder, a division) is not: the warning would be a guess.
 * Two atomics never race; an update of one element ({@code t[j] += v}) and a store racing with
 * itself are {@link RacyUpdates}'s. The warning is on the later access of a pair, naming the
 * earlier.
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
    State breaks = State.DEAD;
    State continues = State.DEAD;

    Target(Stmt statement, Label label) {
      this.statement = statement;
      this.label = label;
    }
  }

  /**
   * The intervals a path may be in, each with whether the path has made a workgroup-array access in
   * it since it began; empty where no path gets (after a return or a jump).
   */
  private record State(Map<Integer, Boolean> intervals) {
    static final State DEAD = new State(Map.of());

    static State start(int interval) {
      return new State(Map.of(interval, false));
    }

    State merge(State other) {
      Map<Integer, Boolean> both = new LinkedHashMap<>(intervals);
      other.intervals.forEach(
          (interval, accessed) -> both.merge(interval, accessed, Boolean::logicalOr));
      return new State(Map.copyOf(both));
    }

    State accessed() {
      Map<Integer, Boolean> all = new LinkedHashMap<>();
      intervals.keySet().forEach(interval -> all.put(interval, true));
      return new State(Map.copyOf(all));
    }
  }

  private final IndexBounds bounds;
  private final Set<Local> varying;
  private final Map<Stmt.Barrier, Integer> barriers = new IdentityHashMap<>();
  private final Map<Object, Access> accesses = new IdentityHashMap<>();
  private final Map<Object, Set<Integer>> intervalsOf = new IdentityHashMap<>();

  /**
   * Per interval, the locals assigned in it after it made an access: their values may differ
   * between accesses.
   */
  private final Map<Integer, Set<Local>> unstable = new HashMap<>();

  private final Deque<Target> targets = new ArrayDeque<>();

  private MissingBarriers(IndexBounds bounds, Set<Local> varying) {
    this.bounds = bounds;
    this.varying = varying;
  }

  /** The warnings of {@code program}, whose index bounds are {@code bounds}. */
  static List<CheckError> find(Program program, IndexBounds bounds) {
    if (program.shared().isEmpty()) {
      return List.of();
    }
    MissingBarriers check = new MissingBarriers(bounds, BarrierUniformity.varyingLocals(program));
    check.block(program.body(), State.start(0));
    return check.pairs();
  }

  private List<CheckError> pairs() {
    Map<Integer, List<Access>> byInterval = new HashMap<>();
    intervalsOf.forEach(
        (node, intervals) ->
            intervals.forEach(
                interval ->
                    byInterval
                        .computeIfAbsent(interval, i -> new ArrayList<>())
                        .add(accesses.get(node))));
    Set<List<Integer>> warned = new HashSet<>();
    List<CheckError> warnings = new ArrayList<>();
    for (Map.Entry<Integer, List<Access>> entry : new TreeMap<>(byInterval).entrySet()) {
      List<Access> in =
          entry.getValue().stream().sorted(Comparator.comparingInt(Access::order)).toList();
      Set<Local> changed = unstable.getOrDefault(entry.getKey(), Set.of());
      for (int i = 0; i < in.size(); i++) {
        for (int j = i + 1; j < in.size(); j++) {
          Access first = in.get(i);
          Access second = in.get(j);
          if (contend(first, second)
              && !warned.contains(List.of(first.order(), second.order()))
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
      }
    }
    return warnings;
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

  private State block(List<Stmt> body, State state) {
    for (Stmt statement : body) {
      state = statement(statement, state);
    }
    return state;
  }

  private State statement(Stmt statement, State state) {
    return switch (statement) {
      case Stmt.Assign assign -> assigned(assign.local(), expression(assign.value(), state));
      case Stmt.Store store -> {
        State after = expression(store.value(), expression(store.index(), state));
        yield access(store, store.array(), store.index(), Kind.WRITE, store.site(), after);
      }
      case Stmt.Atomic atomic -> {
        State after = expression(atomic.index(), state);
        after = expression(atomic.value(), after);
        if (atomic.expected() != null) {
          after = expression(atomic.expected(), after);
        }
        after = access(atomic, atomic.array(), atomic.index(), Kind.ATOMIC, atomic.site(), after);
        yield atomic.result() == null ? after : assigned(atomic.result(), after);
      }
      case Stmt.Barrier barrier ->
          State.start(barriers.computeIfAbsent(barrier, b -> barriers.size() + 1));
      case Stmt.Matrix
              matrix -> { // a tile in workgroup memory: an access at its first element, marked a
        // tile
        State after = state;
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
        State after = expression(copy.targetIndex(), expression(copy.sourceIndex(), state));
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
        State tested = expression(branch.condition(), state);
        yield block(branch.then(), tested).merge(block(branch.otherwise(), tested));
      }
      case Stmt.Loop loop -> loop(loop, state);
      case Stmt.Switch choice -> {
        State entry = expression(choice.selector(), state);
        Target target = new Target(choice, null);
        targets.push(target);
        State fallingThrough = State.DEAD;
        for (Stmt.Case branch : choice.cases()) {
          fallingThrough = block(branch.body(), entry.merge(fallingThrough));
        }
        targets.pop();
        boolean hasDefault = choice.cases().stream().anyMatch(Stmt.Case::isDefault);
        yield fallingThrough.merge(target.breaks).merge(hasDefault ? State.DEAD : entry);
      }
      case Stmt.Break jump -> {
        Target target = target(jump.label(), true);
        target.breaks = target.breaks.merge(state);
        yield State.DEAD;
      }
      case Stmt.Continue jump -> {
        Target target = target(jump.label(), false);
        target.continues = target.continues.merge(state);
        yield State.DEAD;
      }
      case Stmt.Return ret -> State.DEAD;
      case Stmt.VectorLoad load -> expression(load.vector(), state);
      case Stmt.VectorStore store -> {
        State after = expression(store.vector(), state);
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

  /**
   * A loop, run until the intervals at its top stop growing: what the end of an iteration is in,
   * the next one starts in. A run-once block ({@link Stmt.Loop#once}) runs once.
   */
  private State loop(Stmt.Loop loop, State state) {
    Target target = new Target(loop, loop.label());
    targets.push(target);
    boolean once =
        !loop.testFirst() && loop.condition() instanceof Expr.BoolConst(boolean again) && !again;
    State top = state;
    State exit;
    while (true) {
      target.breaks = State.DEAD;
      target.continues = State.DEAD;
      State entered = loop.testFirst() ? expression(loop.condition(), top) : top;
      State end = block(loop.update(), block(loop.body(), entered).merge(target.continues));
      State tested = loop.testFirst() ? end : expression(loop.condition(), end);
      State next = state.merge(tested);
      if (once || next.equals(top)) {
        exit = (loop.testFirst() ? entered : tested).merge(target.breaks);
        break;
      }
      top = next;
    }
    targets.pop();
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
  private State expression(Expr expression, State state) {
    return switch (expression) {
      case Expr.Load load -> {
        State after = expression(load.index(), state);
        yield load.array() instanceof SharedArray shared
            ? access(load, shared, load.index(), Kind.READ, load.site(), after)
            : after;
      }
      case Expr.Effect effect -> expression(effect.value(), block(effect.statements(), state));
      case Expr.Conditional conditional -> {
        State tested = expression(conditional.condition(), state);
        yield expression(conditional.then(), tested)
            .merge(expression(conditional.otherwise(), tested));
      }
      case Expr.Let let ->
          expression(let.body(), assigned(let.local(), expression(let.value(), state)));
      default -> {
        State after = state;
        for (Expr child : Walk.children(expression)) {
          after = expression(child, after);
        }
        yield after;
      }
    };
  }

  private State access(
      Object node, ArrayDecl array, Expr index, Kind kind, Site site, State state) {
    if (!(array instanceof SharedArray shared) || state.intervals().isEmpty()) {
      return state;
    }
    accesses.computeIfAbsent(node, n -> new Access(n, shared, index, kind, site, accesses.size()));
    intervalsOf.computeIfAbsent(node, n -> new HashSet<>()).addAll(state.intervals().keySet());
    return state.accessed();
  }

  private State assigned(Local local, State state) {
    state
        .intervals()
        .forEach(
            (interval, accessed) -> {
              if (accessed) {
                unstable.computeIfAbsent(interval, i -> new HashSet<>()).add(local);
              }
            });
    return state;
  }
}
