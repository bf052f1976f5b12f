package dev.kiln.processor.analysis;

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
    if (!(update
            instanceof
            Stmt.Assign(
                Local v,
                Expr.Binary(
                    BinaryOp op,
                    Expr.LocalGet(Local read),
                    Expr.IntConst(int c),
                    PrimType type,
                    Site site)))
        || !read.equals(v)
        || v.type() != PrimType.INT
        || Assignments.count(loop, v) != 1) {
      return List.of();
    }
    IndexForm initial = before.get(v);
    if (!(initial instanceof Affine start)
        || Assignments.mentionsAny(initial, Assignments.assigned(List.of(loop)))) {
      return List.of();
    }
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
   * fact conditional on the launch keeping {@code ncols - 1 + c} within the int range.
   */
  static List<Constraints.Conditional> conditionalRise(
      Stmt update, Stmt.Loop loop, Map<Local, IndexForm> before, Constraints top) {
    if (!(update
            instanceof
            Stmt.Assign(
                Local v,
                Expr.Binary(
                    BinaryOp op,
                    Expr.LocalGet(Local read),
                    Expr.IntConst(int c),
                    PrimType type,
                    Site site)))
        || op != BinaryOp.ADD
        || c <= 0
        || !read.equals(v)
        || v.type() != PrimType.INT
        || Assignments.count(loop, v) != 1
        || !(before.get(v) instanceof Affine start)
        || Assignments.mentionsAny(start, Assignments.assigned(List.of(loop)))
        || !top.withinInt(Linear.of(start))) {
      return List.of();
    }
    Linear value = Linear.term(new IndexForm.Variable(v));
    for (Linear bound : top.uniformUpperBounds(new IndexForm.Variable(v))) {
      if (bound.coefficients().keySet().stream().allMatch(IndexForm.Scalar.class::isInstance)) {
        Linear keeps = Linear.constant((long) Integer.MAX_VALUE - c).minus(bound);
        return List.of(
            new Constraints.Conditional(value.minus(Linear.of(start)), List.of(keeps), false));
      }
    }
    return List.of();
  }

  /**
   * The id a counter carries: {@code v = v + c} in the update of a loop, {@code v} assigned nowhere
   * else in it, that starts at a local id along an axis plus what is the same for the whole
   * workgroup, {@code c} at least the workgroup's size along that axis ({@code for (col = tid; col
   * < n; col += BLOCK)}). Each invocation's values of {@code v} then leave a remainder of their own
   * by {@code c}: no other invocation of the workgroup reaches them. Only for an update shown not
   * to wrap ({@link #counterFacts}, or {@link #conditionalRise} at a launch).
   *
   * @return the counter's term and the id it carries, or null
   */
  static Map.Entry<IndexForm.Term, IndexForm.Id> carriedId(
      Stmt update, Stmt.Loop loop, Map<Local, IndexForm> before, Workgroup workgroup) {
    if (!(update
            instanceof
            Stmt.Assign(
                Local v,
                Expr.Binary(
                    BinaryOp op,
                    Expr.LocalGet(Local read),
                    Expr.IntConst(int c),
                    PrimType type,
                    Site site)))
        || op != BinaryOp.ADD
        || !read.equals(v)
        || !(before.get(v) instanceof Affine start)) {
      return null;
    }
    IndexForm.Id carried = null;
    for (Map.Entry<IndexForm.Term, Integer> term : start.coefficients().entrySet()) {
      if (term.getKey() instanceof IndexForm.Id id
          && id.builtin() == Builtin.LOCAL_ID
          && term.getValue() == 1
          && carried == null) {
        carried = id;
      } else if (!IndexForm.sameForAll(term.getKey(), false)) {
        return null;
      }
    }
    return carried != null && c >= workgroup.size(carried.axis())
        ? Map.entry(new IndexForm.Variable(v), carried)
        : null;
  }
}
