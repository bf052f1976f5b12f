package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.UnaryOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a condition says about ints where it holds, or where it fails: forms at least 0 ({@code i <
 * n} gives {@code n - 1 - i}), forms not 0 ({@code x != w - 1}), and either kind conditional on
 * requirements where a side of int scalars may wrap ({@link Constraints.Conditional}). It reads
 * comparisons of ints under {@code !}, {@code &&} where the whole holds, {@code ||} where it fails,
 * and the launch gate, which keeps each global id below its arm's grid.
 *
 * @param facts forms at least 0
 * @param unequal forms not 0
 * @param conditional facts of either kind that hold where their requirements do
 */
record ConditionFacts(
    List<Linear> facts, List<Linear> unequal, List<Constraints.Conditional> conditional) {
  /**
   * What is known where the condition is read: the facts there, and each int expression's affine
   * form.
   */
  private record Context(Constraints known, Function<Expr, IndexForm> form) {
    /** This context with what {@code derived} says so far known too. */
    Context and(ConditionFacts derived) {
      return new Context(known.and(derived.facts()).andUnequal(derived.unequal()), form);
    }
  }

  /**
   * What {@code condition} having the value {@code holds} says.
   *
   * @param condition the condition
   * @param holds whether it holds or fails
   * @param known the facts where it is read
   * @param form each int expression's affine form there
   * @return the facts
   */
  static ConditionFacts of(
      Expr condition, boolean holds, Constraints known, Function<Expr, IndexForm> form) {
    ConditionFacts derived =
        new ConditionFacts(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    conditionFacts(condition, holds, new Context(known, form), derived);
    return derived;
  }

  private static void conditionFacts(
      Expr condition, boolean holds, Context context, ConditionFacts derived) {
    switch (condition) {
      case Expr.Unary unary when unary.op() == UnaryOp.NOT ->
          conditionFacts(unary.operand(), !holds, context, derived);
      // a && b: b is read where a holds, so a's facts bound b's sides
      case Expr.Conditional(Expr a, Expr b, Expr.BoolConst(boolean f)) when !f && holds -> {
        conditionFacts(a, true, context, derived);
        conditionFacts(b, true, context.and(derived), derived);
      }
      // a || b
      case Expr.Conditional(Expr a, Expr.BoolConst(boolean t), Expr b) when t && !holds -> {
        conditionFacts(a, false, context, derived);
        conditionFacts(b, false, context.and(derived), derived);
      }
      case Expr.Binary(BinaryOp op, Expr left, Expr right, PrimType type, Site site)
          when op.isComparison() && left.type() == PrimType.INT ->
          comparisonFacts(holds ? op : negated(op), left, right, context, derived);
      // the launch gate: each global id below the arm's grid
      case Expr.InLaunch gate when holds && !gate.wholeWorkgroups() -> {
        for (int axis = 0; axis < 3; axis++) {
          derived
              .facts()
              .add(
                  Linear.term(new IndexForm.Grid(gate.arm(), axis))
                      .minus(Linear.term(new IndexForm.Id(Builtin.GLOBAL_ID, axis)))
                      .plus(Linear.constant(-1)));
        }
      }
      default -> {}
    }
  }

  /**
   * The facts of {@code left op right} on ints, where both sides' forms are their int values; where
   * a side of int scalars and constants alone may wrap ({@code n - 1}), the facts hold where it
   * does not, a requirement a launch can check: conditional facts.
   */
  private static void comparisonFacts(
      BinaryOp op, Expr left, Expr right, Context context, ConditionFacts derived) {
    if (!(context.form().apply(left) instanceof Affine a)
        || !(context.form().apply(right) instanceof Affine b)) {
      return;
    }
    Linear l = Linear.of(a);
    Linear r = Linear.of(b);
    List<Linear> requirements = new ArrayList<>();
    for (Linear side : List.of(l, r)) {
      if (!context.known().withinInt(side)) {
        // the terms a launch does not know must keep a range here: the rest of the side, within
        // the int range over it at every invocation, keeps the whole there. A wide range leaves
        // requirements no launch keeps, which would fail every proof at the access: no fact
        Map<IndexForm.Term, Long> unknown = new java.util.TreeMap<>(side.coefficients());
        unknown.keySet().removeIf(ConditionFacts::launchKnows);
        Linear rest = new Linear(unknown, 0);
        long[] range = unknown.isEmpty() ? new long[] {0, 0} : context.known().intRange(rest);
        if (range == null || range[0] < Integer.MIN_VALUE / 2 || range[1] > Integer.MAX_VALUE / 2) {
          return; // the form may have wrapped where the int did not
        }
        Linear known = side.minus(rest);
        requirements.add(known.plus(Linear.constant(range[0] - (long) Integer.MIN_VALUE)));
        requirements.add(Linear.constant(Integer.MAX_VALUE - range[1]).minus(known));
      }
    }
    List<Linear> facts = new ArrayList<>();
    Linear notZero = null;
    try {
      switch (op) {
        case LT -> facts.add(r.minus(l).plus(Linear.constant(-1)));
        case LE -> facts.add(r.minus(l));
        case GT -> facts.add(l.minus(r).plus(Linear.constant(-1)));
        case GE -> facts.add(l.minus(r));
        case EQ -> facts.addAll(List.of(l.minus(r), r.minus(l)));
        case NE -> notZero = l.minus(r);
        default -> {}
      }
    } catch (ArithmeticException outOfLongRange) {
      return; // no fact
    }
    if (requirements.isEmpty()) {
      derived.facts().addAll(facts);
      if (notZero != null) {
        derived.unequal().add(notZero);
      }
    } else {
      facts.forEach(
          fact ->
              derived.conditional().add(new Constraints.Conditional(fact, requirements, false)));
      if (notZero != null) {
        derived.conditional().add(new Constraints.Conditional(notZero, requirements, true));
      }
    }
  }

  /**
   * Whether a launch knows {@code term}'s value, or for an id the range its invocations give it: a
   * side of such terms stays within the int range at a launch that keeps it there for every
   * invocation ({@code w * 2048 + 8 * l <= n - 8}: where the launch's workgroups keep {@code w *
   * 2048} an int).
   */
  static boolean launchKnows(IndexForm.Term term) {
    return switch (term) {
      case IndexForm.Scalar scalar -> true;
      case IndexForm.Length length -> true;
      case IndexForm.Grid grid -> true;
      case IndexForm.Id id -> true;
      case IndexForm.Product(IndexForm.Term first, IndexForm.Term second) ->
          first.isUniform() != second.isUniform() && launchKnows(first) && launchKnows(second);
      default -> false;
    };
  }

  private static BinaryOp negated(BinaryOp comparison) {
    return switch (comparison) {
      case LT -> BinaryOp.GE;
      case LE -> BinaryOp.GT;
      case GT -> BinaryOp.LE;
      case GE -> BinaryOp.LT;
      case EQ -> BinaryOp.NE;
      case NE -> BinaryOp.EQ;
      default -> throw new IllegalArgumentException(comparison + " is not a comparison");
    };
  }
}
