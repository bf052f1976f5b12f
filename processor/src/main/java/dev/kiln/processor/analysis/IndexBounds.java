package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchAbi;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The array accesses of a program that are in bounds for every invocation, whose checks can go.
 * It walks the body in order, carrying what is known there ({@link Constraints}): the launch's
 * ranges of ids and lengths, the conditions of the {@code if}s, {@code ?:}s and {@code &&}s that
 * lead to the access (and of an {@code if} whose branch returns, breaks or continues, for what
 * follows it), and the range of a loop counter ({@code for (s = 128; s > 0; s >>= 1)} keeps
 * {@code s} within 1..128 in the body). A local assigned more than once is a variable whose facts
 * are forgotten where it may change: at its assignments, and on entry to a loop or switch that
 * assigns it. An access is proven when its index, as an affine form ({@link IndexForms}), is at
 * least 0 and at most the array's length less one ({@code buffer.length - 1} for a buffer), or is
 * masked by a non-negative constant below a fixed array's length ({@code counts[v & 255]}). A guard
 * {@code x != e} trims an end of the range of {@code x} that the facts put on {@code e}. A buffer
 * access it cannot prove gets a {@link LaunchProof} where its index is affine: the facts there and
 * the bounds still to prove, which the runtime evaluates with each launch's lengths, scalars and
 * grid ({@link Bound#AT_LAUNCH}).
 */
public final class IndexBounds {
  private final IndexForms forms;
  /** What tightens a counter's range to its multiples: {@code k} of {@code k < 32; k += 16} is 0 or 16. */
  private final Multiples multiples;
  private final Constraints launch;
  /** Locals that statements assign: the variables. */
  private final Set<Local> variables = new HashSet<>();
  /** Per access node, by identity: how often it occurs, and how often proven there. */
  private final Map<Object, int[]> occurrences = new IdentityHashMap<>();
  /** Per access's index node, by identity: how often it occurs, and how often proven inside its own workgroup's range. */
  private final Map<Object, int[]> ownWorkgroup = new IdentityHashMap<>();
  /** Per access's index node, by identity: the own-element proof of each occurrence (null where none). */
  private final Map<Object, List<OwnElement>> ownElements = new IdentityHashMap<>();
  /** Per access's index node of a workgroup array, by identity: its form and the facts at each occurrence. */
  private final Map<Object, List<WorkgroupMeeting.Place>> workgroupPlaces = new IdentityHashMap<>();
  /** Per access node not proven, by identity: each occurrence's launch proof (null where none). */
  private final Map<Object, List<LaunchProof>> launchProofs = new IdentityHashMap<>();
  /** Per tile of a constant stride, by identity: the index nodes of its ends ({@link #tileEnds}). */
  private final Map<Stmt.Matrix, Expr[]> tileEnds = new IdentityHashMap<>();
  /** Per copy, by identity: the index nodes of its sides' ends ({@link #copyEnds}). */
  private final Map<Stmt.Copy, Expr[][]> copyEnds = new IdentityHashMap<>();
  /** The keys of {@link #launchProofs} in program order, so that modules are the same on every build. */
  private final List<Object> unproven = new ArrayList<>();
  /** Whether accesses may be settled at a launch: a checked program of one element per invocation. */
  private final boolean proofsAtLaunch;
  /** Each of the program's locals by its place among them: how launch proofs name variables. */
  private final Map<Local, Integer> variableNumbers = new HashMap<>();
  private final Workgroup workgroup;

  private IndexBounds(Program program, IndexForms forms, Multiples multiples) {
    this.forms = forms;
    this.multiples = multiples;
    this.workgroup = program.workgroup();
    this.proofsAtLaunch = program.boundsChecks() && program.elementsPerInvocation() == 1;
    program.locals().forEach(local -> variableNumbers.putIfAbsent(local, variableNumbers.size()));
    this.launch = Constraints.none(program.workgroup());
    variables.addAll(assigned(program.body()));
    block(program.body(), new State(launch, Map.of()));
  }

  /**
   * The bounds of {@code program}'s accesses.
   *
   * @param program the program
   * @param forms its index forms
   * @return what is proven
   */
  public static IndexBounds of(Program program, IndexForms forms, Multiples multiples) {
    return new IndexBounds(program, forms, multiples);
  }

  /**
   * Whether every invocation that evaluates {@code index}, the index of one of the program's
   * accesses, gets a value inside its own workgroup's range: {@code [W·workgroupId(0), W·workgroupId(0)
   * + W)} for a one-dimensional workgroup of width W (a one-dimensional launch), wherever it is
   * evaluated. Fusion orders such accesses of two arms by a workgroup barrier:
   * {@code a[workgroupId(0) * 64 + k]} with {@code k} a loop counter in {@code [0, 64)} is one.
   *
   * @param index the index expression of an access, the node itself
   * @return whether it is proven
   */
  public boolean insideOwnWorkgroup(Expr index) {
    int[] counts = ownWorkgroup.get(index);
    return counts != null && counts[0] == counts[1];
  }

  /**
   * The proof that {@code index}, the index of one of the program's accesses of a buffer or
   * workgroup array, is each invocation's own element wherever it is evaluated ({@link OwnElement}),
   * with the bounds of every place; null where some place has none.
   *
   * @param index the index expression of an access, the node itself
   * @return the proof, or null
   */
  public OwnElement ownElement(Expr index) {
    List<OwnElement> proofs = ownElements.get(index);
    if (proofs == null || proofs.contains(null)) {
      return null;
    }
    OwnElement first = proofs.getFirst();
    java.util.LinkedHashSet<dev.kiln.abi.LaunchBound> bounds = new java.util.LinkedHashSet<>();
    for (OwnElement proof : proofs) {
      if (!proof.withBounds(List.of()).equals(first.withBounds(List.of()))) {
        return null;
      }
      bounds.addAll(proof.bounds());
    }
    return first.withBounds(List.copyOf(bounds));
  }

  /**
   * Whether accesses of one workgroup array at the index nodes {@code first} and {@code second} (the
   * same node or two), made by two different invocations of one workgroup at the same time, may
   * reach the same element ({@link WorkgroupMeeting}).
   *
   * @param first the index expression of one access, the node itself
   * @param second that of the other
   * @param stable the locals whose value is the same at both accesses, for each invocation
   * @param uniform the locals whose value is the same for every invocation of the workgroup
   * @return what is known
   */
  public WorkgroupMeeting.Outcome workgroupMeeting(Expr first, Expr second, java.util.function.Predicate<Local> stable,
      java.util.function.Predicate<Local> uniform) {
    List<WorkgroupMeeting.Place> firsts = workgroupPlaces.getOrDefault(first, List.of());
    List<WorkgroupMeeting.Place> seconds = workgroupPlaces.getOrDefault(second, List.of());
    WorkgroupMeeting meeting = new WorkgroupMeeting(workgroup, stable, uniform);
    OwnElement ownFirst = ownElement(first);
    OwnElement ownSecond = ownElement(second);
    WorkgroupMeeting.Outcome outcome = WorkgroupMeeting.Outcome.APART;
    for (WorkgroupMeeting.Place a : firsts) {
      for (WorkgroupMeeting.Place b : seconds) {
        WorkgroupMeeting.Outcome pair = meeting.meet(a, ownFirst, b, ownSecond);
        if (pair.compareTo(outcome) > 0) {
          outcome = pair;
        }
      }
    }
    return outcome;
  }

  /**
   * How many array accesses the program has, how many of them are proven in bounds, and how many
   * more a launch's values may prove ({@link Bound#AT_LAUNCH}).
   */
  public record Tally(int accesses, int proven, int atLaunch) {}

  /** How many of the program's array accesses are proven in bounds, at compile time or at a launch. */
  public Tally tally() {
    int proven = (int) occurrences.values().stream().filter(counts -> counts[0] == counts[1]).count();
    int atLaunch = (int) unproven.stream().filter(access -> boundOf(access) == Bound.AT_LAUNCH).count();
    return new Tally(occurrences.size(), proven, atLaunch);
  }

  /** How an access's index is known to be in bounds. */
  public enum Bound {
    /** For every invocation of every launch: no check. */
    PROVEN,
    /** Where the launch's values prove it ({@link #launchProofs()}): a check the runtime may leave out. */
    AT_LAUNCH,
    /** Not known: a check. */
    CHECKED
  }

  /** How this load of the program is known to be in bounds. */
  public Bound bound(Expr.Load load) {
    return boundOf(load);
  }

  /** How this store of the program is known to be in bounds. */
  public Bound bound(Stmt.Store store) {
    return boundOf(store);
  }

  /** How this atomic update of the program is known to be in bounds. */
  public Bound bound(Stmt.Atomic atomic) {
    return boundOf(atomic);
  }

  /**
   * How both ends of one side of a copy ({@code target}: its destination) are known to be in
   * bounds, and so its whole range: the lesser of the two.
   */
  public Bound bound(Stmt.Copy copy, boolean target) {
    return boundOfBoth(copyEnds(copy, target));
  }

  /**
   * The first and last index of a side of a copy, as index nodes of their own (made once per copy,
   * so that their identity keys the occurrences as an access node does).
   */
  private Expr[] copyEnds(Stmt.Copy copy, boolean target) {
    Expr[][] ends = copyEnds.computeIfAbsent(copy, c -> new Expr[][] {ends(c.sourceIndex(), c), ends(c.targetIndex(), c)});
    return ends[target ? 1 : 0];
  }

  private static Expr[] ends(Expr first, Stmt.Copy copy) {
    return new Expr[] {
        new Expr.Binary(BinaryOp.ADD, first, new Expr.IntConst(0), PrimType.INT, copy.site()),
        new Expr.Binary(BinaryOp.ADD, first, new Expr.IntConst(copy.length() - 1), PrimType.INT, copy.site())};
  }

  /**
   * How a tile's whole extent is known to lie in its array: proven or settled at launch where its
   * stride is a constant and both ends are; else checked.
   */
  public Bound bound(Stmt.Matrix tile) {
    Expr[] ends = tileEnds.get(tile);
    return ends == null ? Bound.CHECKED : boundOfBoth(ends);
  }

  /** How a range is known in bounds from its two ends' accesses: the lesser of the two. */
  private Bound boundOfBoth(Expr[] ends) {
    Bound first = boundOf(ends[0]);
    Bound last = boundOf(ends[1]);
    return first.compareTo(last) >= 0 ? first : last;
  }

  /**
   * The lowest and highest index of a tile whose stride is a constant, as index nodes of their own
   * (made once per tile); null for a tile of a variable stride.
   */
  private Expr[] tileEnds(Stmt.Matrix tile, Expr offset, Expr stride) {
    if (!(stride instanceof Expr.IntConst(int rows))) {
      return null;
    }
    return tileEnds.computeIfAbsent(tile, t -> {
      long span = (long) rows * (LaunchAbi.MATRIX_SIDE - 1);
      long below = Math.min(0, span);
      long above = Math.max(0, span) + LaunchAbi.MATRIX_SIDE - 1;
      if (below < Integer.MIN_VALUE || above > Integer.MAX_VALUE) {
        return null;
      }
      return new Expr[] {
          new Expr.Binary(BinaryOp.ADD, offset, new Expr.IntConst((int) below), PrimType.INT, t.site()),
          new Expr.Binary(BinaryOp.ADD, offset, new Expr.IntConst((int) above), PrimType.INT, t.site())};
    });
  }

  private Bound boundOf(Object access) {
    if (isProven(access)) {
      return Bound.PROVEN;
    }
    List<LaunchProof> proofs = launchProofs.get(access);
    return proofs != null && !proofs.contains(null) ? Bound.AT_LAUNCH : Bound.CHECKED;
  }

  /**
   * The proofs of the accesses {@link Bound#AT_LAUNCH}, each once: where all hold at a launch, the
   * runtime leaves out those accesses' checks.
   *
   * @return the proofs, in program order
   */
  public List<LaunchProof> launchProofs() {
    java.util.LinkedHashSet<LaunchProof> all = new java.util.LinkedHashSet<>();
    for (Object access : unproven) {
      if (boundOf(access) == Bound.AT_LAUNCH) {
        all.addAll(launchProofs.get(access));
      }
    }
    return List.copyOf(all);
  }

  private boolean isProven(Object access) {
    int[] counts = occurrences.get(access);
    return counts != null && counts[0] == counts[1];
  }

  /** What is known at a point: facts, and the affine values of variables last assigned one. */
  private record State(Constraints facts, Map<Local, IndexForm> values) {
    /** This state with what it knows of {@code changed} forgotten. */
    State forget(Set<Local> changed) {
      if (changed.isEmpty()) {
        return this;
      }
      Map<Local, IndexForm> kept = new HashMap<>();
      values.forEach((local, value) -> {
        if (!changed.contains(local) && !mentionsAny(value, changed)) {
          kept.put(local, value);
        }
      });
      return new State(facts.without(term -> term instanceof IndexForm.Variable v && changed.contains(v.local())),
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

  private static boolean mentionsAny(IndexForm form, Set<Local> locals) {
    return form instanceof Affine affine && affine.coefficients().keySet().stream()
        .anyMatch(term -> IndexForm.mentions(term, t -> t instanceof IndexForm.Variable v && locals.contains(v.local())));
  }

  /**
   * The values an int expression that has no affine form takes wherever {@code state} holds, as an
   * interval: affine parts from the ranges of their terms, then sums, differences, products,
   * quotients and remainders by positive constants, shifts by constants and masks, each as Java
   * computes it on ints ({@code index / 32 * 40 + index % 32} with {@code index} in [0, 4095] lies
   * in [0, 5111]); null where something has no bound or a value may leave the int range and wrap.
   */
  private long[] range(Expr expression, State state) {
    if (expression.type() != PrimType.INT) {
      return null;
    }
    if (form(expression, state) instanceof Affine affine) {
      return state.facts().intRange(Linear.of(affine));
    }
    if (expression instanceof Expr.Call call && call.function() == Intrinsic.SUBGROUP_ID) {
      return new long[] {0, workgroup.invocations() - 1}; // below the workgroup's count of subgroups
    }
    if (!(expression instanceof Expr.Binary binary)) {
      return null;
    }
    long[] left = range(binary.left(), state);
    Integer constant = binary.right() instanceof Expr.IntConst(int value) ? value : null;
    if (binary.op() == BinaryOp.AND && constant != null && constant >= 0) {
      return new long[] {0, constant}; // whatever the left side: its bits under a non-negative mask
    }
    if (left == null) {
      return null;
    }
    long[] result;
    switch (binary.op()) {
      case ADD, SUB, MUL -> {
        long[] right = range(binary.right(), state);
        if (right == null) {
          return null;
        }
        result = switch (binary.op()) {
          case ADD -> new long[] {left[0] + right[0], left[1] + right[1]};
          case SUB -> new long[] {left[0] - right[1], left[1] - right[0]};
          default -> {
            long[] corners = {left[0] * right[0], left[0] * right[1], left[1] * right[0], left[1] * right[1]};
            yield new long[] {Arrays.stream(corners).min().orElseThrow(), Arrays.stream(corners).max().orElseThrow()};
          }
        };
      }
      // a quotient truncated toward zero grows with the dividend
      case DIV -> result = constant != null && constant > 0 ? new long[] {left[0] / constant, left[1] / constant} : null;
      case REM -> result = constant == null || constant <= 0 ? null
          : new long[] {left[0] >= 0 ? 0 : Math.max(left[0], 1 - constant), left[1] <= 0 ? 0 : Math.min(left[1], constant - 1)};
      case SHR -> result = constant != null && constant >= 0 && constant < 32
          ? new long[] {left[0] >> constant, left[1] >> constant} : null;
      default -> result = null;
    }
    return result == null || result[0] < Integer.MIN_VALUE || result[1] > Integer.MAX_VALUE ? null : result;
  }

  private IndexForm form(Expr expression, State state) {
    return forms.form(expression, local -> variables.contains(local)
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
      inExpressions.addAll(assigned(own));
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
          yield mentionsAny(value, Set.of(assign.local())) ? after : after.bind(assign.local(), value);
        }
        // a value with no affine form may still have a range: (subgroup & 7) / 4 * 64 lies in [0, 64]
        long[] range = range(assign.value(), state);
        Linear variable = Linear.term(new IndexForm.Variable(assign.local()));
        yield range == null ? after : after.with(List.of(variable.minus(Linear.constant(range[0])),
            Linear.constant(range[1]).minus(variable)));
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
        Set<Local> changed = assigned(branch.then());
        changed.addAll(assigned(branch.otherwise()));
        block(branch.then(), assume(state, branch.condition(), true));
        block(branch.otherwise(), assume(state, branch.condition(), false));
        State after = state.forget(changed);
        // if (x >= n) return; — what follows runs only where the condition is false
        yield leaves(branch.then()) && branch.otherwise().isEmpty()
            ? assume(after, branch.condition(), false) : after;
      }
      case Stmt.Loop loop -> loop(loop, state);
      case Stmt.Switch choice -> {
        Set<Local> changed = new HashSet<>();
        choice.cases().forEach(c -> changed.addAll(assigned(c.body())));
        State entry = state.forget(changed);
        choice.cases().forEach(c -> block(c.body(), entry));
        yield entry;
      }
      case Stmt.Copy copy -> {
        for (boolean target : new boolean[] {false, true}) {
          ArrayDecl array = target ? copy.target() : copy.source();
          for (Expr end : copyEnds(copy, target)) {
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
   * the top of its body, and the range a counter keeps ({@link #counterFacts}).
   */
  private State loop(Stmt.Loop loop, State before) {
    Set<Local> changed = assigned(loop.body());
    changed.addAll(assigned(loop.update()));
    changed.addAll(assigned(loop.condition()));
    State entry = before.forget(changed);
    expression(loop.condition(), entry);
    State top = entry;
    if (loop.testFirst() && assigned(loop.condition()).isEmpty()) {
      top = assume(entry, loop.condition(), true);
      List<Linear> counters = new ArrayList<>();
      for (Stmt update : loop.update()) {
        counters.addAll(counterFacts(update, loop, before, top));
      }
      top = top.with(counters);
      top = top.with(multiplesFacts(loop, top));
    }
    block(loop.body(), top);
    block(loop.update(), entry);
    return entry;
  }

  /**
   * The ranges of the loop's counters at the top of its body narrowed to their multiples: a counter
   * that is a multiple of m lies between the multiples of m inside its range.
   */
  private List<Linear> multiplesFacts(Stmt.Loop loop, State top) {
    List<Linear> facts = new ArrayList<>();
    for (Stmt update : loop.update()) {
      if (update instanceof Stmt.Assign assign && assign.local().type() == PrimType.INT) {
        long m = multiples.power(assign.local());
        Linear counter = Linear.term(new IndexForm.Variable(assign.local()));
        long[] range = m > 1 ? top.facts().intRange(counter) : null;
        if (range != null) {
          facts.add(counter.minus(Linear.constant(Math.ceilDiv(range[0], m) * m)));
          facts.add(Linear.constant(Math.floorDiv(range[1], m) * m).minus(counter));
        }
      }
    }
    return facts;
  }

  /**
   * {@code v = v op c} in the update of a loop that tests first, {@code v} assigned nowhere else in
   * the loop and holding an invariant value on entry: each iteration starts with the condition true,
   * so where the condition keeps {@code op c} from wrapping, {@code v} moves one way from that value.
   */
  private List<Linear> counterFacts(Stmt update, Stmt.Loop loop, State before, State top) {
    if (!(update instanceof Stmt.Assign(Local v, Expr.Binary(BinaryOp op, Expr.LocalGet(Local read),
        Expr.IntConst(int c), PrimType type, Site site))) || !read.equals(v) || v.type() != PrimType.INT || assignments(loop, v) != 1) {
      return List.of();
    }
    IndexForm initial = before.values().get(v);
    if (!(initial instanceof Affine start) || mentionsAny(initial, assigned(List.of(loop)))) {
      return List.of();
    }
    Linear value = Linear.term(new IndexForm.Variable(v));
    Linear first = Linear.of(start);
    Constraints known = top.facts();
    if (!known.withinInt(first)) {
      return List.of(); // the form may have wrapped where the int did not
    }
    // by induction: with v on its side of the first value at the top of an iteration, and the
    // condition true there, the update keeps it on that side
    Linear below = first.minus(value);
    Linear above = value.minus(first);
    Constraints falling = known.and(List.of(below));
    Constraints rising = known.and(List.of(above));
    boolean falls = switch (op) {
      case SHR, USHR -> c >= 1 && c <= 31 && falling.nonNegative(value);
      case DIV -> c >= 1 && falling.nonNegative(value);
      case SUB -> c > 0 && falling.nonNegative(value.minus(Linear.constant((long) Integer.MIN_VALUE + c)));
      default -> false;
    };
    boolean rises = switch (op) {
      case ADD -> c > 0 && rising.nonNegative(Linear.constant((long) Integer.MAX_VALUE - c).minus(value));
      case SHL -> c >= 1 && c <= 30 && rising.nonNegative(value)
          && rising.nonNegative(Linear.constant(Integer.MAX_VALUE >> c).minus(value));
      case MUL -> c >= 1 && rising.nonNegative(value)
          && rising.nonNegative(Linear.constant(Integer.MAX_VALUE / c).minus(value));
      default -> false;
    };
    return falls ? List.of(below) : rises ? List.of(above) : List.of();
  }

  private static int assignments(Stmt.Loop loop, Local local) {
    int[] count = {0};
    Walk.statements(List.of(loop), statement -> {
      if (statement instanceof Stmt.Assign assign && assign.local().equals(local)
          || statement instanceof Stmt.Atomic atomic && local.equals(atomic.result())) {
        count[0]++;
      }
    });
    return count[0];
  }

  /** Visits the accesses inside {@code expression}, each branch of a {@code ?:} knowing its condition. */
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
    int[] counts = ownWorkgroup.computeIfAbsent(index, a -> new int[2]);
    counts[0]++;
    counts[1] += insideOwnWorkgroup(index, state) ? 1 : 0;
    OwnElement proof = null;
    if ((array instanceof BufferDecl || array instanceof dev.kiln.processor.ir.SharedArray)
        && form(index, state) instanceof Affine affine) {
      proof = OwnElement.prove(affine, state.facts(), workgroup, array instanceof BufferDecl);
    }
    ownElements.computeIfAbsent(index, a -> new ArrayList<>()).add(proof);
    if (array instanceof dev.kiln.processor.ir.SharedArray) {
      workgroupPlaces.computeIfAbsent(index, a -> new ArrayList<>())
          .add(new WorkgroupMeeting.Place(form(index, state) instanceof Affine affine ? affine : null, state.facts(), false));
    }
  }

  /**
   * A tile of workgroup array {@code array} at {@code offset}: its elements span more than one
   * index, so the barrier checks take it as able to meet any element access of the array (a tile
   * place, no own-element proof).
   */
  private void recordTile(ArrayDecl array, Expr offset, State state) {
    if (array instanceof dev.kiln.processor.ir.SharedArray) {
      ownElements.computeIfAbsent(offset, a -> new ArrayList<>()).add(null);
      Affine first = form(offset, state) instanceof Affine affine ? affine : null;
      workgroupPlaces.computeIfAbsent(offset, a -> new ArrayList<>()).add(new WorkgroupMeeting.Place(first, state.facts(), true));
    }
  }

  /** A tile's ends as two accesses, where its stride is a constant. */
  private void recordExtent(Stmt.Matrix tile, ArrayDecl array, Expr offset, Expr stride, State state) {
    Expr[] ends = tileEnds(tile, offset, stride);
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
    if (workgroup.y() != 1 || workgroup.z() != 1 || !(form(index, state) instanceof Affine affine)) {
      return false;
    }
    int width = workgroup.x();
    IndexForm.Id group = new IndexForm.Id(Builtin.WORKGROUP_ID, 0);
    if (!(Conflicts.withGlobalIdSplit(affine, width) instanceof Affine own)) {
      return false;
    }
    Linear offset = Linear.of(own).minus(Linear.term(group).times(width));
    return state.facts().nonNegative(offset) && state.facts().nonNegative(Linear.constant(width - 1L).minus(offset));
  }

  /** Records an occurrence of an access: whether it is proven here, and if not, what would prove it at a launch. */
  private void record(Object access, ArrayDecl array, Expr index, Site site, State state) {
    boolean proven = within(array, index, state);
    int[] counts = occurrences.computeIfAbsent(access, a -> new int[2]);
    counts[0]++;
    counts[1] += proven ? 1 : 0;
    if (!proven) {
      launchProofs.computeIfAbsent(access, a -> {
        unproven.add(a);
        return new ArrayList<>();
      }).add(launchProof(array, index, site, state));
    }
  }

  /**
   * What would prove {@code array[index]} in bounds at a launch ({@link LaunchProof}): the targets
   * of {@link #within} that the facts here do not prove; null where there is none (not a buffer, an
   * index without an affine form, or a vectorized program, whose ids are not one element's).
   */
  private LaunchProof launchProof(ArrayDecl array, Expr index, Site site, State state) {
    if (!proofsAtLaunch || !(array instanceof BufferDecl buffer) || !(form(index, state) instanceof Affine affine)) {
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
    return targets.isEmpty() ? null
        : state.facts().launchProof(targets, buffer.name() + "[" + affine.named() + "] at line " + site.line(),
            variableNumbers::get);
  }

  /** Whether {@code array[index]} is in bounds wherever {@code state} holds. */
  private boolean within(ArrayDecl array, Expr index, State state) {
    Linear last;
    switch (array) {
      case FixedArray fixed when fixed.hasConstantLength() -> {
        if (index instanceof Expr.Binary(BinaryOp op, Expr value, Expr.IntConst(int mask), PrimType type, Site site) && op == BinaryOp.AND
            && mask >= 0) {
          return mask < fixed.size(); // value & mask lies in [0, mask]
        }
        last = Linear.constant(fixed.size() - 1);
      }
      case BufferDecl buffer -> last = Linear.term(new IndexForm.Length(buffer.name())).plus(Linear.constant(-1));
      default -> {
        return false;
      }
    }
    if (!(form(index, state) instanceof Affine affine)) {
      long[] range = array instanceof FixedArray ? range(index, state) : null;
      return range != null && range[0] >= 0 && range[1] <= last.constant();
    }
    Linear value = Linear.of(affine);
    // the int index is congruent to the form modulo 2^32: inside [0, last] it is the form's value
    return state.facts().nonNegative(value) && state.facts().nonNegative(last.minus(value));
  }

  /** {@code state} and what {@code condition} having the value {@code holds} says. */
  private State assume(State state, Expr condition, boolean holds) {
    if (!assigned(condition).isEmpty()) {
      return state; // a fact on a value the condition itself changes could be stale
    }
    ConditionFacts derived = ConditionFacts.of(condition, holds, state.facts(), expression -> form(expression, state));
    return state.with(derived.facts()).withUnequal(derived.unequal()).withConditional(derived.conditional());
  }

  /**
   * Whether {@code body} never falls through to what follows it: it ends in a {@code return},
   * {@code break} or {@code continue} of its own (inside an effect, a {@code break} of the effect's
   * label leaves only the effect, which a statement of the body never is).
   */
  private static boolean leaves(List<Stmt> body) {
    return !body.isEmpty() && (body.getLast() instanceof Stmt.Return || body.getLast() instanceof Stmt.Break
        || body.getLast() instanceof Stmt.Continue);
  }

  /** The locals that statements of {@code body} assign, those inside effects included. */
  private static Set<Local> assigned(List<Stmt> body) {
    Set<Local> locals = new HashSet<>();
    Walk.statements(body, statement -> {
      switch (statement) { // exhaustive: a new statement that assigns locals must say so here
        case Stmt.Assign assign -> locals.add(assign.local());
        case Stmt.Atomic atomic -> {
          if (atomic.result() != null) {
            locals.add(atomic.result());
          }
        }
        case Stmt.VectorLoad load -> locals.addAll(load.lanes());
        case Stmt.Store s -> {}
        case Stmt.Copy s -> {}
        case Stmt.DeclareShared s -> {}
        case Stmt.VectorStore s -> {}
        case Stmt.Matrix s -> {}
        case Stmt.ClearArray s -> {}
        case Stmt.Barrier s -> {}
        case Stmt.If s -> {}
        case Stmt.Loop s -> {}
        case Stmt.Switch s -> {}
        case Stmt.Break s -> {}
        case Stmt.Continue s -> {}
        case Stmt.Return s -> {}
        case Stmt.Call call -> throw call.unlinked();
      }
    });
    return locals;
  }

  /** The locals that effects inside {@code expression} assign. */
  private static Set<Local> assigned(Expr expression) {
    Set<Local> locals = new HashSet<>();
    Walk.expression(expression, e -> {
      if (e instanceof Expr.Effect effect) {
        locals.addAll(assigned(effect.statements()));
      }
    });
    return locals;
  }
}
