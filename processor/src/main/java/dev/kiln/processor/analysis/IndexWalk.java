package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchProof;
import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.FixedArray;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The walk behind {@link IndexBounds}: the body in order, carrying what is known at each point
 * ({@link Constraints} and the affine values of variables), recording each access it meets in an
 * {@link AccessRecord}: proven or not, what would prove it at a launch, whether it is the
 * invocation's own element or inside its own workgroup's range, and where it touches workgroup
 * memory.
 */
final class IndexWalk {
  private final IndexForms forms;

  /**
   * What tightens a counter's range to its multiples: {@code k} of {@code k < 32; k += 16} is 0 or
   * 16.
   */
  private final Multiples multiples;

  private final AccessRecord record;

  /** Locals that statements assign: the variables. */
  private final Set<Local> variables = new HashSet<>();

  /**
   * Whether accesses may be settled at a launch: a checked program of one element per invocation.
   */
  private final boolean proofsAtLaunch;

  /** Each of the program's locals by its place among them: how launch proofs name variables. */
  private final Map<Local, Integer> variableNumbers = new HashMap<>();

  private final Workgroup workgroup;

  /**
   * The counters of the loops the walk is inside whose values carry an id ({@link
   * LoopCounters#carriedId}), each with that id.
   */
  private final Map<IndexForm.Term, LoopCounters.Carried> carriers = new HashMap<>();

  private IndexWalk(Program program, IndexForms forms, Multiples multiples, AccessRecord record) {
    this.forms = forms;
    this.multiples = multiples;
    this.record = record;
    this.workgroup = program.workgroup();
    this.proofsAtLaunch = program.boundsChecks() && program.elementsPerInvocation() == 1;
    program.locals().forEach(local -> variableNumbers.putIfAbsent(local, variableNumbers.size()));
    variables.addAll(Assignments.assigned(program.body()));
  }

  /**
   * Walks {@code program}'s body from the launch's facts, recording its accesses in {@code record}.
   */
  static void walk(Program program, IndexForms forms, Multiples multiples, AccessRecord record) {
    new IndexWalk(program, forms, multiples, record)
        .block(program.body(), new State(Constraints.none(program.workgroup()), Map.of()));
  }

  /** What is known at a point: facts, and the affine values of variables last assigned one. */
  private record State(Constraints facts, Map<Local, IndexForm> values) {
    /** This state with what it knows of {@code changed} forgotten. */
    State forget(Set<Local> changed) {
      if (changed.isEmpty()) {
        return this;
      }
      Map<Local, IndexForm> kept = new HashMap<>();
      values.forEach(
          (local, value) -> {
            if (!changed.contains(local) && !Assignments.mentionsAny(value, changed)) {
              kept.put(local, value);
            }
          });
      return new State(
          facts.without(
              term -> term instanceof IndexForm.Variable v && changed.contains(v.local())),
          kept);
    }

    State with(List<Linear> more) {
      return new State(facts.and(more), values);
    }

    State withUnequal(List<Linear> more) {
      return more.isEmpty() ? this : new State(facts.andUnequal(more), values);
    }

    State withConditional(List<Constraints.Conditional> more) {
      return more.isEmpty() ? this : new State(facts.andConditional(more), values);
    }

    State bind(Local local, IndexForm value) {
      Map<Local, IndexForm> more = new HashMap<>(values);
      more.put(local, value);
      return new State(facts, more);
    }
  }

  private IndexForm form(Expr expression, State state) {
    return forms.form(
        expression,
        local ->
            variables.contains(local)
                ? state.values().getOrDefault(local, IndexForm.term(new IndexForm.Variable(local)))
                : new IndexForm.Unknown());
  }

  private State block(List<Stmt> body, State state) {
    for (Stmt statement : body) {
      state = statement(statement, state);
    }
    return state;
  }

  private State statement(Stmt statement, State before) {
    // a local an effect inside the statement's own expressions assigns may change anywhere in them
    Set<Local> inExpressions = new HashSet<>();
    for (Expr own : Walk.ownExpressions(statement)) {
      inExpressions.addAll(Assignments.assigned(own));
    }
    State state = before.forget(inExpressions);
    if (!(statement instanceof Stmt.If) && !(statement instanceof Stmt.Loop)) {
      Walk.ownExpressions(statement).forEach(own -> expression(own, state));
    }
    return switch (statement) {
      case Stmt.Assign assign -> {
        IndexForm value = form(assign.value(), state);
        State after = state.forget(Set.of(assign.local()));
        if (!variables.contains(assign.local())) {
          yield after;
        }
        if (value instanceof Affine) {
          yield Assignments.mentionsAny(value, Set.of(assign.local()))
              ? after
              : after.bind(assign.local(), value);
        }
        // a value with no affine form may still have a range: (subgroup & 7) / 4 * 64 lies in [0,
        // 64]
        long[] range = IntRanges.of(assign.value(), e -> form(e, state), state.facts(), workgroup);
        Linear variable = Linear.term(new IndexForm.Variable(assign.local()));
        State ranged =
            range == null
                ? after
                : after.with(
                    List.of(
                        variable.minus(Linear.constant(range[0])),
                        Linear.constant(range[1]).minus(variable)));
        yield extremeFacts(assign, ranged);
      }
      case Stmt.Store store -> {
        record(store, store.array(), store.index(), store.site(), state);
        recordOwn(store.array(), store.index(), state);
        yield state;
      }
      case Stmt.Atomic atomic -> {
        record(atomic, atomic.array(), atomic.index(), atomic.site(), state);
        recordOwn(atomic.array(), atomic.index(), state);
        yield atomic.result() == null ? state : state.forget(Set.of(atomic.result()));
      }
      case Stmt.If branch -> {
        expression(branch.condition(), state);
        Set<Local> changed = Assignments.assigned(branch.then());
        changed.addAll(Assignments.assigned(branch.otherwise()));
        block(branch.then(), assume(state, branch.condition(), true));
        block(branch.otherwise(), assume(state, branch.condition(), false));
        State after = state.forget(changed);
        // if (x >= n) return; — what follows runs only where the condition is false
        yield leaves(branch.then()) && branch.otherwise().isEmpty()
            ? assume(after, branch.condition(), false)
            : after;
      }
      case Stmt.Loop loop -> loop(loop, state);
      case Stmt.Switch choice -> {
        Set<Local> changed = new HashSet<>();
        choice.cases().forEach(c -> changed.addAll(Assignments.assigned(c.body())));
        State entry = state.forget(changed);
        choice.cases().forEach(c -> block(c.body(), entry));
        yield entry;
      }
      case Stmt.Copy copy -> {
        for (boolean target : new boolean[] {false, true}) {
          ArrayDecl array = target ? copy.target() : copy.source();
          for (Expr end : record.copyEnds(copy, target)) {
            record(end, array, end, copy.site(), state);
          }
          recordTile(array, target ? copy.targetIndex() : copy.sourceIndex(), state);
        }
        yield state;
      }
      case Stmt.DeclareShared d -> state;
      case Stmt.VectorLoad v -> state;
      case Stmt.VectorStore v -> state;
      case Stmt.Matrix m -> { // a tile's loads and stores check their whole extent where they run
        m.op().scalars().forEach(scalar -> expression(scalar, state));
        switch (m.op()) {
          case MatrixOp.Load load -> {
            recordTile(load.array(), load.offset(), state);
            recordExtent(m, load.array(), load.offset(), load.stride(), state);
          }
          case MatrixOp.Store store -> {
            recordTile(store.array(), store.offset(), state);
            recordExtent(m, store.array(), store.offset(), store.stride(), state);
          }
          default -> {}
        }
        yield state;
      }
      case Stmt.ClearArray c -> state;
      case Stmt.Barrier b -> state;
      case Stmt.Break b -> state;
      case Stmt.Continue c -> state;
      case Stmt.Return r -> state;
      case Stmt.Call call -> throw call.unlinked();
    };
  }

  /**
   * A loop: what it assigns is forgotten on entry; a loop that tests first knows its condition at
   * the top of its body, and the range a counter keeps ({@link LoopCounters#counterFacts}).
   */
  private State loop(Stmt.Loop loop, State before) {
    List<IndexForm.Term> carrying = new ArrayList<>();
    Set<Local> changed = Assignments.assigned(loop.body());
    changed.addAll(Assignments.assigned(loop.update()));
    changed.addAll(Assignments.assigned(loop.condition()));
    State entry = before.forget(changed);
    expression(loop.condition(), entry);
    State top = entry;
    if (loop.testFirst() && Assignments.assigned(loop.condition()).isEmpty()) {
      top = assume(entry, loop.condition(), true);
      List<Linear> counters = new ArrayList<>();
      List<Constraints.Conditional> rises = new ArrayList<>();
      for (Stmt update : loop.update()) {
        List<Linear> facts = LoopCounters.counterFacts(update, loop, before.values(), top.facts());
        List<Constraints.Conditional> rise =
            facts.isEmpty()
                ? LoopCounters.conditionalRise(
                    update, loop, before.values(), top.facts(), workgroup, forms)
                : List.of();
        counters.addAll(facts);
        rises.addAll(rise);
        var carried =
            LoopCounters.carriedId(update, loop, before.values(), workgroup, forms, top.facts());
        if (carried != null
            && (carried.getValue().bound() != null || !facts.isEmpty() || !rise.isEmpty())) {
          carriers.put(carried.getKey(), carried.getValue());
          carrying.add(carried.getKey());
        }
      }
      // the counters keep their ranges wherever the condition is read, so the condition read
      // again with them may say more ({@code k < 8 && first + k < n}: where first + k stays an int)
      top = assume(entry.with(counters).withConditional(rises), loop.condition(), true);
      top = top.with(LoopCounters.multiplesFacts(loop, top.facts(), multiples));
    }
    block(loop.body(), top);
    carrying.forEach(carriers::remove);
    block(loop.update(), entry);
    return entry;
  }

  /**
   * Visits the accesses inside {@code expression}, each branch of a {@code ?:} knowing its
   * condition.
   */
  private void expression(Expr expression, State state) {
    switch (expression) {
      case Expr.Load load -> {
        record(load, load.array(), load.index(), load.site(), state);
        recordOwn(load.array(), load.index(), state);
        expression(load.index(), state);
      }
      case Expr.Conditional conditional -> {
        expression(conditional.condition(), state);
        expression(conditional.then(), assume(state, conditional.condition(), true));
        expression(conditional.otherwise(), assume(state, conditional.condition(), false));
      }
      case Expr.Effect effect -> {
        block(effect.statements(), state);
        expression(effect.value(), state);
      }
      default -> Walk.children(expression).forEach(child -> expression(child, state));
    }
  }

  private void recordOwn(ArrayDecl array, Expr index, State state) {
    OwnElement proof = null;
    if ((array instanceof BufferDecl || array instanceof dev.kiln.processor.ir.SharedArray)
        && form(index, state) instanceof Affine affine) {
      proof =
          OwnElement.prove(affine, state.facts(), workgroup, array instanceof BufferDecl, carriers);
    }
    List<LaunchBound> ownBounds =
        proof != null
            ? proof.bounds()
            : array instanceof BufferDecl
                ? MixedRadix.prove(index, e -> form(e, state), forms, state.facts(), workgroup)
                : null;
    record.ownership(index, insideOwnWorkgroup(index, state), proof, ownBounds);
    if (array instanceof dev.kiln.processor.ir.SharedArray) {
      record.workgroupPlace(
          index,
          new WorkgroupMeeting.Place(
              form(index, state) instanceof Affine affine ? affine : null,
              state.facts(),
              false,
              LocalIdFunction.of(index, e -> form(e, state))));
    }
  }

  /**
   * A tile of workgroup array {@code array} at {@code offset}: its elements span more than one
   * index, so the barrier checks take it as able to meet any element access of the array (a tile
   * place, no own-element proof).
   */
  private void recordTile(ArrayDecl array, Expr offset, State state) {
    if (array instanceof dev.kiln.processor.ir.SharedArray) {
      record.notOwn(offset);
      Affine first = form(offset, state) instanceof Affine affine ? affine : null;
      record.workgroupPlace(offset, new WorkgroupMeeting.Place(first, state.facts(), true, null));
    }
  }

  /** A tile's ends as two accesses, where its stride is a constant. */
  private void recordExtent(
      Stmt.Matrix tile, ArrayDecl array, Expr offset, Expr stride, State state) {
    Expr[] ends = record.tileEnds(tile, offset, stride);
    if (ends != null) {
      for (Expr end : ends) {
        record(end, array, end, tile.site(), state);
      }
    }
  }

  /**
   * Whether {@code index} lies in {@code [W·wg, W·wg + W)} wherever {@code state} holds, with
   * {@code globalId(0) = W·wg + localId(0)}. The value then lies in the int range (the runtime
   * refuses grids past it in whole workgroups), so the int index is the form's value.
   */
  private boolean insideOwnWorkgroup(Expr index, State state) {
    if (workgroup.y() != 1
        || workgroup.z() != 1
        || !(form(index, state) instanceof Affine affine)) {
      return false;
    }
    int width = workgroup.x();
    IndexForm.Id group = new IndexForm.Id(Builtin.WORKGROUP_ID, 0);
    if (!(Conflicts.withGlobalIdSplit(affine, width) instanceof Affine own)) {
      return false;
    }
    Linear offset = Linear.of(own).minus(Linear.term(group).times(width));
    return state.facts().nonNegative(offset)
        && state.facts().nonNegative(Linear.constant(width - 1L).minus(offset));
  }

  /**
   * Records an occurrence of an access: whether it is proven here, and if not, what would prove it
   * at a launch.
   */
  private void record(Object access, ArrayDecl array, Expr index, Site site, State state) {
    boolean proven = within(array, index, state);
    record.access(access, proven, proven ? null : launchProof(array, index, site, state));
  }

  /**
   * What would prove {@code array[index]} in bounds at a launch ({@link LaunchProof}): the targets
   * of {@link #within} that the facts here do not prove; null where there is none (not a buffer, an
   * index without an affine form, or a vectorized program, whose ids are not one element's).
   */
  private LaunchProof launchProof(ArrayDecl array, Expr index, Site site, State state) {
    if (!proofsAtLaunch
        || !(array instanceof BufferDecl buffer)
        || !(form(index, state) instanceof Affine affine)) {
      return null;
    }
    Linear value = Linear.of(affine);
    Linear last = Linear.term(new IndexForm.Length(buffer.name())).plus(Linear.constant(-1));
    List<Linear> targets = new ArrayList<>();
    try {
      for (Linear target : List.of(value, last.minus(value))) {
        if (!state.facts().nonNegative(target)) {
          targets.add(target);
        }
      }
    } catch (ArithmeticException outOfLongRange) {
      return null;
    }
    // a variable no fact mentions (a value loaded from memory: counts[v]) has no range at any
    // launch: such a proof never holds, and would keep every launch of the module checked
    boolean unbounded =
        targets.stream()
            .flatMap(target -> target.coefficients().keySet().stream())
            .anyMatch(term -> !state.facts().boundsVariablesOf(term));
    return targets.isEmpty() || unbounded
        ? null
        : state
            .facts()
            .launchProof(
                targets,
                buffer.name() + "[" + affine.named() + "] at line " + site.line(),
                variableNumbers::get);
  }

  /** Whether {@code array[index]} is in bounds wherever {@code state} holds. */
  private boolean within(ArrayDecl array, Expr index, State state) {
    Linear last;
    switch (array) {
      case FixedArray fixed when fixed.hasConstantLength() -> {
        if (index
                instanceof
                Expr.Binary(
                    BinaryOp op,
                    Expr value,
                    Expr.IntConst(int mask),
                    PrimType type,
                    Site site)
            && op == BinaryOp.AND
            && mask >= 0) {
          return mask < fixed.size(); // value & mask lies in [0, mask]
        }
        last = Linear.constant(fixed.size() - 1);
      }
      case BufferDecl buffer ->
          last = Linear.term(new IndexForm.Length(buffer.name())).plus(Linear.constant(-1));
      default -> {
        return false;
      }
    }
    if (!(form(index, state) instanceof Affine affine)) {
      long[] range =
          array instanceof FixedArray
              ? IntRanges.of(index, e -> form(e, state), state.facts(), workgroup)
              : null;
      return range != null && range[0] >= 0 && range[1] <= last.constant();
    }
    Linear value = Linear.of(affine);
    // the int index is congruent to the form modulo 2^32: inside [0, last] it is the form's value
    return state.facts().nonNegative(value) && state.facts().nonNegative(last.minus(value));
  }

  /**
   * {@code v = Math.min(a, b)} (or {@code max}) of ints: {@code v <= a} and {@code v <= b} (or
   * {@code >=}) from here on, as a guard would say them ({@code last = min(cols, first + span)}
   * bounds a loop {@code c < last} by {@code cols}); where an argument reads {@code v} itself, the
   * assignment gives nothing.
   */
  private State extremeFacts(Stmt.Assign assign, State after) {
    java.util.function.Predicate<Expr> readsItself =
        e -> e instanceof Expr.LocalGet(Local read) && read.equals(assign.local());
    if (!(assign.value() instanceof Expr.Call(Intrinsic function, List<Expr> arguments, Site site))
        || function != Intrinsic.MIN && function != Intrinsic.MAX
        || assign.local().type() != PrimType.INT
        || arguments.stream().anyMatch(argument -> Walk.anyIn(argument, readsItself))) {
      return after;
    }
    BinaryOp toEach = function == Intrinsic.MIN ? BinaryOp.LE : BinaryOp.GE;
    State bounded = after;
    for (Expr argument : arguments) {
      bounded =
          assume(
              bounded, new Expr.Binary(toEach, new Expr.LocalGet(assign.local()), argument), true);
    }
    return bounded;
  }

  /** {@code state} and what {@code condition} having the value {@code holds} says. */
  private State assume(State state, Expr condition, boolean holds) {
    if (!Assignments.assigned(condition).isEmpty()) {
      return state; // a fact on a value the condition itself changes could be stale
    }
    ConditionFacts derived =
        ConditionFacts.of(condition, holds, state.facts(), expression -> form(expression, state));
    return state
        .with(derived.facts())
        .withUnequal(derived.unequal())
        .withConditional(derived.conditional());
  }

  /**
   * Whether {@code body} never falls through to what follows it: it ends in a {@code return},
   * {@code break} or {@code continue} of its own (inside an effect, a {@code break} of the effect's
   * label leaves only the effect, which a statement of the body never is).
   */
  private static boolean leaves(List<Stmt> body) {
    return !body.isEmpty()
        && (body.getLast() instanceof Stmt.Return
            || body.getLast() instanceof Stmt.Break
            || body.getLast() instanceof Stmt.Continue);
  }
}
