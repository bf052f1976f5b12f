package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchForm;
import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ranges a loop's counters keep at the top of its body, which {@link IndexWalk} knows there.
 */
final class LoopCounters {
  private LoopCounters() {}

  /**
   * A loop's update {@code v = v op by} of an int counter that the loop assigns nowhere else, and
   * the form of the counter's value on entry, invariant in the loop.
   */
  private record Step(Local counter, BinaryOp op, Expr by, Affine start, Integer constant) {
    /** The update {@code statement} of {@code loop} as a step, or null. */
    static Step of(Stmt statement, Stmt.Loop loop, Map<Local, IndexForm> before) {
      if (!(statement
              instanceof
              Stmt.Assign(
                  Local v,
                  Expr.Binary(
                      BinaryOp op,
                      Expr.LocalGet(Local read),
                      Expr by,
                      PrimType type,
                      Site site)))
          || !read.equals(v)
          || v.type() != PrimType.INT
          || Assignments.count(loop, v) != 1
          || !(before.get(v) instanceof Affine start)
          || Assignments.mentionsAny(start, Assignments.assigned(List.of(loop)))) {
        return null;
      }
      return new Step(v, op, by, start, constant(by, loop, before));
    }

    /**
     * The step's constant: {@code by} written as a number, as constants combined ({@code c += LANES
     * * CHUNK}, which javac's tree keeps as a product of two fields), or as a local the loop does
     * not assign holding one on entry ({@code int step = LANES * CHUNK; ... c += step}); null for
     * another.
     */
    private static Integer constant(Expr by, Stmt.Loop loop, Map<Local, IndexForm> before) {
      return switch (by) {
        case Expr.IntConst(int c) -> c;
        case Expr.LocalGet(Local held)
            when Assignments.count(loop, held) == 0
                && before.get(held) instanceof Affine(Map<IndexForm.Term, Integer> terms, int c)
                && terms.isEmpty() ->
            c;
        case Expr.Binary(BinaryOp op, Expr left, Expr right, PrimType type, Site site)
            when type == PrimType.INT
                && (op == BinaryOp.ADD || op == BinaryOp.SUB || op == BinaryOp.MUL) -> {
          Integer a = constant(left, loop, before);
          Integer b = constant(right, loop, before);
          yield a == null || b == null
              ? null
              : op == BinaryOp.ADD ? a + b : op == BinaryOp.SUB ? a - b : a * b;
        }
        default -> null;
      };
    }
  }

  /**
   * The ranges of the loop's counters at the top of its body narrowed to their multiples: a counter
   * that is a multiple of m lies between the multiples of m inside its range.
   */
  static List<Linear> multiplesFacts(Stmt.Loop loop, Constraints top, Multiples multiples) {
    List<Linear> facts = new ArrayList<>();
    for (Stmt update : loop.update()) {
      if (update instanceof Stmt.Assign assign && assign.local().type() == PrimType.INT) {
        long m = multiples.power(assign.local());
        Linear counter = Linear.term(new IndexForm.Variable(assign.local()));
        long[] range = m > 1 ? top.intRange(counter) : null;
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
   * the loop and holding an invariant value on entry: each iteration starts with the condition
   * true, so where the condition keeps {@code op c} from wrapping, {@code v} moves one way from
   * that value.
   */
  static List<Linear> counterFacts(
      Stmt update, Stmt.Loop loop, Map<Local, IndexForm> before, Constraints top) {
    Step step = Step.of(update, loop, before);
    if (step == null || step.constant() == null) {
      return List.of();
    }
    int c = step.constant();
    Local v = step.counter();
    BinaryOp op = step.op();
    Affine start = step.start();
    Linear value = Linear.term(new IndexForm.Variable(v));
    Linear first = Linear.of(start);
    Constraints known = top;
    if (!known.withinInt(first)) {
      return List.of(); // the form may have wrapped where the int did not
    }
    // by induction: with v on its side of the first value at the top of an iteration, and the
    // condition true there, the update keeps it on that side
    Linear below = first.minus(value);
    Linear above = value.minus(first);
    Constraints falling = known.and(List.of(below));
    Constraints rising = known.and(List.of(above));
    boolean falls =
        switch (op) {
          case SHR, USHR -> c >= 1 && c <= 31 && falling.nonNegative(value);
          case DIV -> c >= 1 && falling.nonNegative(value);
          case SUB ->
              c > 0
                  && falling.nonNegative(
                      value.minus(Linear.constant((long) Integer.MIN_VALUE + c)));
          default -> false;
        };
    boolean rises =
        switch (op) {
          case ADD ->
              c > 0
                  && rising.nonNegative(Linear.constant((long) Integer.MAX_VALUE - c).minus(value));
          case SHL ->
              c >= 1
                  && c <= 30
                  && rising.nonNegative(value)
                  && rising.nonNegative(Linear.constant(Integer.MAX_VALUE >> c).minus(value));
          case MUL ->
              c >= 1
                  && rising.nonNegative(value)
                  && rising.nonNegative(Linear.constant(Integer.MAX_VALUE / c).minus(value));
          default -> false;
        };
    return falls ? List.of(below) : rises ? List.of(above) : List.of();
  }

  /**
   * Where {@link #counterFacts} cannot show that {@code v = v + c} never wraps, because the
   * condition bounds {@code v} by int scalars alone ({@code col < ncols}), the counter's rise as a
   * fact conditional on the launch keeping {@code ncols - 1 + c} within the int range (and, for a
   * bound that may wrap itself, {@code col <= ncols - 8}, that bound: the condition's own
   * requirements); where the first value may wrap ({@code span * workgroupId + localId}), also on
   * the launch's ids keeping it an int (a fact for launch proofs alone). A grid-stride loop's step,
   * {@code numWorkgroups(0) * size}, is the launch's to tell: its rise is a fact for launch proofs
   * alone.
   */
  static List<Constraints.Conditional> conditionalRise(
      Stmt update,
      Stmt.Loop loop,
      Map<Local, IndexForm> before,
      Constraints top,
      Workgroup workgroup,
      IndexForms forms) {
    Step step = Step.of(update, loop, before);
    if (step == null || step.op() != BinaryOp.ADD) {
      return List.of();
    }
    Linear by = null;
    if (step.constant() != null && step.constant() > 0) {
      by = Linear.constant(step.constant());
    }
    for (int axis = 0; axis < 3 && by == null; axis++) {
      if (dispatchStride(step.by(), axis, workgroup.size(axis), forms)) {
        by =
            Linear.term(new IndexForm.Id(Builtin.NUM_WORKGROUPS, axis)).times(workgroup.size(axis));
      }
    }
    if (by == null) {
      return List.of();
    }
    Local v = step.counter();
    Linear first = Linear.of(step.start());
    List<Linear> requirements = new ArrayList<>();
    if (!top.withinInt(first)) {
      // a first value of ids and scalars (span * workgroupId + localId) that a launch keeps an int
      if (!first.coefficients().keySet().stream().allMatch(ConditionFacts::launchKnows)) {
        return List.of();
      }
      requirements.add(first.minus(Linear.constant(Integer.MIN_VALUE)));
      requirements.add(Linear.constant(Integer.MAX_VALUE).minus(first));
    }
    Linear value = Linear.term(new IndexForm.Variable(v));
    for (Linear bound : top.uniformUpperBounds(new IndexForm.Variable(v))) {
      if (ofScalars(bound)) {
        requirements.add(Linear.constant(Integer.MAX_VALUE).minus(bound).minus(by));
        return List.of(new Constraints.Conditional(value.minus(first), requirements, false));
      }
    }
    // a bound the condition gives where the launch keeps its side an int ({@code c <= n - 8})
    for (Constraints.Conditional bound : top.conditionalUpperBounds(new IndexForm.Variable(v))) {
      if (ofScalars(bound.fact())) {
        requirements.addAll(bound.requirements());
        requirements.add(Linear.constant(Integer.MAX_VALUE).minus(bound.fact()).minus(by));
        return List.of(new Constraints.Conditional(value.minus(first), requirements, false));
      }
    }
    return List.of();
  }

  private static boolean ofScalars(Linear form) {
    return form.coefficients().keySet().stream().allMatch(IndexForm.Scalar.class::isInstance);
  }

  /**
   * The id a counter carries, and for one that carries the global id the bound a launch keeps so
   * that it never wraps ({@code bound}: {@code n - 1 + grid} within the int range, with {@code
   * start}, at least 0 where the counter's values are, its first value); null both for a local id,
   * whose counter's rise the state's facts show.
   */
  record Carried(IndexForm.Id id, Linear start, LaunchBound bound) {}

  /**
   * The id a counter carries: {@code v = v + step} in the update of a loop, {@code v} assigned
   * nowhere else in it, that starts at an id along an axis plus what is the same for every
   * invocation that shares that id's range: a local id with a constant step at least the
   * workgroup's size along its axis ({@code for (col = tid; col < n; col += BLOCK)}), or the global
   * id with a step of the whole dispatch along its axis ({@code idx += Gpu.numWorkgroups(0) * 128},
   * a grid-stride loop, whose condition bounds {@code v} by int scalars). Each invocation's values
   * of {@code v} then leave a remainder of their own by the step: no other invocation (of the
   * workgroup, or of the dispatch) reaches them. A local id's counter counts only where its update
   * is shown not to wrap ({@link #counterFacts}, or {@link #conditionalRise} at a launch).
   *
   * @return the counter's term and what it carries, or null
   */
  static Map.Entry<IndexForm.Term, Carried> carriedId(
      Stmt statement,
      Stmt.Loop loop,
      Map<Local, IndexForm> before,
      Workgroup workgroup,
      IndexForms forms,
      Constraints top) {
    Step update = Step.of(statement, loop, before);
    if (update == null || update.op() != BinaryOp.ADD) {
      return null;
    }
    Local v = update.counter();
    Affine start = update.start();
    IndexForm.Id carried = null;
    for (Map.Entry<IndexForm.Term, Integer> term : start.coefficients().entrySet()) {
      if (term.getKey() instanceof IndexForm.Id id
          && (id.builtin() == Builtin.LOCAL_ID || id.builtin() == Builtin.GLOBAL_ID)
          && term.getValue() == 1
          && carried == null) {
        carried = id;
      }
    }
    if (carried == null) {
      return null;
    }
    boolean local = carried.builtin() == Builtin.LOCAL_ID;
    for (IndexForm.Term term : start.coefficients().keySet()) {
      if (!term.equals(carried)
          && !(local ? IndexForm.sameForAll(term, false) : term.isUniform())) {
        return null;
      }
    }
    IndexForm.Term counter = new IndexForm.Variable(v);
    int size = workgroup.size(carried.axis());
    if (local) {
      return update.constant() != null && update.constant() >= size
          ? Map.entry(counter, new Carried(carried, null, null))
          : null;
    }
    if (!dispatchStride(update.by(), carried.axis(), size, forms)) {
      return null;
    }
    for (Linear bound : top.uniformUpperBounds(counter)) {
      if (ofScalars(bound)) {
        Map<String, Long> terms = new java.util.TreeMap<>();
        bound.coefficients().forEach((t, k) -> terms.put(((IndexForm.Scalar) t).name(), k));
        LaunchForm last = LaunchForm.ofScalars(bound.constant(), terms);
        Map<String, Long> withGrid = new java.util.TreeMap<>(last.terms());
        withGrid.putAll(LaunchForm.roundedGrid(0, carried.axis()).terms());
        LaunchBound keeps =
            new LaunchBound(
                Integer.MAX_VALUE, List.of(new LaunchForm(last.constant(), withGrid)), "");
        return Map.entry(counter, new Carried(carried, Linear.of(start), keeps));
      }
    }
    return null;
  }

  /**
   * Whether {@code step} is the number of global ids a launch dispatches along {@code axis}: {@code
   * Gpu.numWorkgroups(axis) * size}, written so or held by a local assigned it once.
   */
  private static boolean dispatchStride(Expr step, int axis, int size, IndexForms forms) {
    Expr value =
        step instanceof Expr.LocalGet(Local held) && forms.singleAssignment(held) != null
            ? forms.singleAssignment(held)
            : step;
    if (!(value
            instanceof Expr.Binary(BinaryOp op, Expr left, Expr right, PrimType type, Site site))
        || op != BinaryOp.MUL) {
      return false;
    }
    for (Expr[] pair : new Expr[][] {{left, right}, {right, left}}) {
      if (pair[0] instanceof Expr.BuiltinGet(Builtin builtin, int along)
          && builtin == Builtin.NUM_WORKGROUPS
          && along == axis
          && pair[1] instanceof Expr.IntConst(int c)
          && c == size) {
        return true;
      }
    }
    return false;
  }
}
