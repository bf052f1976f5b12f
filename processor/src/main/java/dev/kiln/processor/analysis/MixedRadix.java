package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchForm;
import dev.kiln.processor.analysis.IndexForm.Term;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A proof that a buffer index built from the digits of the global id is each invocation's own
 * element, where {@link OwnElement}'s affine one cannot see it: llm.c's softmax finds its row's
 * head, query and batch by remainder and division ({@code h = idx % nh; tq = (idx / nh) % t; b =
 * idx / (nh * t)}) and updates {@code att[b*nh*t*t + h*t*t + tq*t + j]}, {@code j} a loop counter
 * in {@code [0, t)}.
 *
 * <p>Read as a polynomial, the index is {@code offset + Σ stride_i·atom_i}: the offset and the
 * strides the same for all (constants and int scalars); each atom a digit of {@code globalId(0)}
 * ({@code (id / divisor) % radix}, or the top digit {@code id / divisor}) or a loop counter that
 * the facts keep in {@code [0, range)}, range the same for all. Two chains make the index own:
 *
 * <ul>
 *   <li>the digits are all of the id's: their divisors run from 1, each the one before times that
 *       one's radix, to the top digit, so that distinct ids have distinct digits;
 *   <li>the atoms are a mixed-radix number: ordered by stride, the first stride is a constant
 *       {@code k} and each next one is the one before times that atom's range; only the last atom
 *       may have none (the top digit). Distinct atoms then give distinct values.
 * </ul>
 *
 * That holds while every radix is at least 1, the divisors do not wrap, and the values stay below
 * {@code 2^32 / 2^t}, t the trailing zeros of {@code k}: the top digit stays below {@code grid /
 * divisor + 1}, so the values below {@code (grid + divisor)·E}, E the counters' ranges' product.
 * Where the facts do not prove a radix at least 1 the launch keeps it, as it keeps {@code
 * 2^t·grid·E} and {@code 2^t·divisor·E} at most {@code 2^31 - 1}, and a grid of 1 along axes 1 and
 * 2. Only for a one-dimensional workgroup.
 */
final class MixedRadix {
  private static final long HALF_WRAP = Integer.MAX_VALUE;

  private final Function<Expr, IndexForm> atAccess;
  private final IndexForms forms;

  private MixedRadix(Function<Expr, IndexForm> atAccess, IndexForms forms) {
    this.atAccess = atAccess;
    this.forms = forms;
  }

  /** {@code constant · Π factors}, the factors int scalars in term order. */
  private record Monomial(long constant, List<Term> factors) {
    static final Monomial ONE = new Monomial(1, List.of());

    Monomial {
      factors = factors.stream().sorted().toList();
    }

    Monomial times(Monomial other) {
      List<Term> all = new ArrayList<>(factors);
      all.addAll(other.factors);
      return new Monomial(Math.multiplyExact(constant, other.constant), all);
    }

    /** Its constant (where not 1) and its factors, as a launch's factors. */
    List<LaunchForm> launchFactors() {
      List<LaunchForm> all = new ArrayList<>();
      if (constant != 1) {
        all.add(LaunchForm.of(constant));
      }
      factors.forEach(
          factor ->
              all.add(LaunchForm.ofScalars(0, Map.of(((IndexForm.Scalar) factor).name(), 1L))));
      return all;
    }
  }

  /** An atom of the index: a value that differs between invocations. */
  private sealed interface Atom {}

  /** {@code (globalId(0) / divisor) % radix}; the top digit {@code globalId(0) / divisor}. */
  private record Digit(Monomial divisor, Monomial radix) implements Atom {}

  /** A loop counter's value where the index is read. */
  private record Counter(IndexForm.Variable variable) implements Atom {}

  /** A product of int scalars and at most one atom (null for none). */
  private record Key(List<Term> factors, Atom atom) {
    Key {
      factors = factors.stream().sorted().toList();
    }
  }

  /** A polynomial: each key's coefficient, none 0. */
  private record Poly(Map<Key, Long> terms) {
    Poly {
      Map<Key, Long> kept = new LinkedHashMap<>();
      terms.forEach(
          (key, k) -> {
            if (k != 0) {
              kept.put(key, k);
            }
          });
      terms = Map.copyOf(kept);
    }

    static Poly of(Key key, long k) {
      return new Poly(Map.of(key, k));
    }

    /** {@code this + times·other}. */
    Poly plus(Poly other, long times) {
      Map<Key, Long> sum = new HashMap<>(terms);
      other.terms.forEach((key, k) -> sum.merge(key, Math.multiplyExact(times, k), Math::addExact));
      return new Poly(sum);
    }

    /** The product, or null where a term would hold two atoms. */
    Poly times(Poly other) {
      Map<Key, Long> product = new HashMap<>();
      for (Map.Entry<Key, Long> a : terms.entrySet()) {
        for (Map.Entry<Key, Long> b : other.terms.entrySet()) {
          if (a.getKey().atom() != null && b.getKey().atom() != null) {
            return null;
          }
          List<Term> factors = new ArrayList<>(a.getKey().factors());
          factors.addAll(b.getKey().factors());
          Atom atom = a.getKey().atom() != null ? a.getKey().atom() : b.getKey().atom();
          product.merge(
              new Key(factors, atom),
              Math.multiplyExact(a.getValue(), b.getValue()),
              Math::addExact);
        }
      }
      return new Poly(product);
    }

    /** The one atom, where this is exactly it; else null. */
    Atom soleAtom() {
      if (terms.size() != 1) {
        return null;
      }
      Map.Entry<Key, Long> only = terms.entrySet().iterator().next();
      return only.getValue() == 1 && only.getKey().factors().isEmpty()
          ? only.getKey().atom()
          : null;
    }

    /** This as a positive monomial of scalars, or null. */
    Monomial positiveMonomial() {
      if (terms.size() != 1) {
        return null;
      }
      Map.Entry<Key, Long> only = terms.entrySet().iterator().next();
      return only.getKey().atom() == null && only.getValue() > 0
          ? new Monomial(only.getValue(), only.getKey().factors())
          : null;
    }
  }

  /**
   * The bounds a launch keeps for the index {@code index} to be each invocation's own element of a
   * buffer (reasons empty), or null where this proof does not hold.
   *
   * @param index the index
   * @param atAccess the form of an expression where the index is read (variables as they are there)
   * @param forms the program's forms, for the single assignments the index reads
   * @param facts what is known where the index is read
   * @param workgroup the program's workgroup
   * @return the bounds, or null
   */
  static List<LaunchBound> prove(
      Expr index,
      Function<Expr, IndexForm> atAccess,
      IndexForms forms,
      Constraints facts,
      Workgroup workgroup) {
    if (workgroup.y() != 1 || workgroup.z() != 1) {
      return null;
    }
    try {
      Poly poly = new MixedRadix(atAccess, forms).value(index, true);
      return poly == null ? null : bounds(poly, facts);
    } catch (ArithmeticException outOfLongRange) {
      return null;
    }
  }

  private static List<LaunchBound> bounds(Poly poly, Constraints facts) {
    Map<Atom, Monomial> strides = new HashMap<>();
    Map<Atom, Map<List<Term>, Long>> grouped = new HashMap<>();
    poly.terms()
        .forEach(
            (key, k) -> {
              if (key.atom() != null) {
                grouped
                    .computeIfAbsent(key.atom(), a -> new HashMap<>())
                    .merge(key.factors(), k, Math::addExact);
              }
            });
    for (Map.Entry<Atom, Map<List<Term>, Long>> entry : grouped.entrySet()) {
      Poly stride =
          new Poly(
              entry.getValue().entrySet().stream()
                  .collect(
                      java.util.stream.Collectors.toMap(
                          e -> new Key(e.getKey(), null), Map.Entry::getValue)));
      if (stride.terms().size() != 1) {
        return null; // a stride of several terms, or none
      }
      Map.Entry<Key, Long> only = stride.terms().entrySet().iterator().next();
      strides.put(entry.getKey(), new Monomial(only.getValue(), only.getKey().factors()));
    }
    Map<Atom, Monomial> ranges = new HashMap<>();
    for (Atom atom : strides.keySet()) {
      Monomial range =
          switch (atom) {
            case Digit digit -> digit.radix();
            case Counter counter -> counterRange(counter, facts);
          };
      if (range == null && atom instanceof Counter) {
        return null;
      }
      ranges.put(atom, range);
    }
    Monomial topDivisor = topDivisor(ranges);
    List<Atom> chain = chain(strides, ranges);
    if (topDivisor == null || chain == null) {
      return null;
    }
    long scale = strides.get(chain.getFirst()).constant();
    LaunchForm twos = LaunchForm.of(1L << Long.numberOfTrailingZeros(scale));
    List<LaunchForm> counters = new ArrayList<>();
    List<LaunchBound> bounds = new ArrayList<>();
    for (Map.Entry<Atom, Monomial> entry : ranges.entrySet()) {
      if (entry.getKey() instanceof Counter) {
        counters.addAll(entry.getValue().launchFactors());
      } else if (entry.getValue() != null) {
        for (Term factor : entry.getValue().factors()) { // each radix's scalars at least 1
          if (!facts.nonNegative(Linear.term(factor).minus(Linear.constant(1)))) {
            bounds.add(new LaunchBound(0, List.of(scalarOneMinus(factor)), ""));
          }
        }
      }
    }
    List<LaunchForm> gridSide = new ArrayList<>(List.of(twos, LaunchForm.roundedGrid(0, 0)));
    gridSide.addAll(counters);
    List<LaunchForm> divisorSide = new ArrayList<>(List.of(twos));
    divisorSide.addAll(topDivisor.launchFactors());
    divisorSide.addAll(counters);
    bounds.add(new LaunchBound(HALF_WRAP, gridSide, ""));
    bounds.add(new LaunchBound(HALF_WRAP, divisorSide, ""));
    for (int axis = 1; axis < 3; axis++) {
      bounds.add(new LaunchBound(1, List.of(LaunchForm.roundedGrid(0, axis)), ""));
    }
    return OwnElement.needed(bounds, facts);
  }

  /** {@code 1 - scalar} as a launch's factor. */
  private static LaunchForm scalarOneMinus(Term scalar) {
    return LaunchForm.ofScalars(1, Map.of(((IndexForm.Scalar) scalar).name(), -1L));
  }

  /**
   * The divisor of the top digit, where the digits run from divisor 1, each the one before times
   * its radix, to it; else null.
   */
  private static Monomial topDivisor(Map<Atom, Monomial> ranges) {
    List<Digit> digits = new ArrayList<>();
    ranges.keySet().forEach(atom -> digits.add(atom instanceof Digit digit ? digit : null));
    digits.removeIf(java.util.Objects::isNull);
    Monomial divisor = Monomial.ONE;
    for (int found = 0; found < digits.size(); found++) {
      Monomial wanted = divisor;
      Digit next = digits.stream().filter(d -> d.divisor().equals(wanted)).findFirst().orElse(null);
      if (next == null) {
        return null;
      }
      if (next.radix() == null) {
        return found == digits.size() - 1 ? divisor : null;
      }
      divisor = divisor.times(next.radix());
    }
    return null; // no digits, or no top digit
  }

  /**
   * The atoms in the order of a mixed-radix number: the first with the least constant stride, each
   * next with the stride before times the range before; null where they are not one.
   */
  private static List<Atom> chain(Map<Atom, Monomial> strides, Map<Atom, Monomial> ranges) {
    Atom first =
        strides.entrySet().stream()
            .filter(e -> e.getValue().factors().isEmpty())
            .min(java.util.Comparator.comparingLong(e -> Math.abs(e.getValue().constant())))
            .map(Map.Entry::getKey)
            .orElse(null);
    List<Atom> chain = new ArrayList<>();
    for (Atom atom = first; atom != null; ) {
      chain.add(atom);
      if (chain.size() == strides.size()) {
        return chain;
      }
      Monomial range = ranges.get(atom);
      if (range == null) {
        return null; // an atom with no range before the last
      }
      Monomial wanted = strides.get(atom).times(range);
      atom =
          strides.entrySet().stream()
              .filter(e -> e.getValue().equals(wanted) && !chain.contains(e.getKey()))
              .map(Map.Entry::getKey)
              .findFirst()
              .orElse(null);
    }
    return null;
  }

  /**
   * {@code R} for a counter the facts keep in {@code [0, R)}, R a positive constant or scalar
   * monomial; null where they do not.
   */
  private static Monomial counterRange(Counter counter, Constraints facts) {
    Linear value = Linear.term(counter.variable());
    if (!facts.nonNegative(value)) {
      return null;
    }
    long largest = facts.largest(value);
    if (largest < Integer.MAX_VALUE) {
      return new Monomial(largest + 1, List.of());
    }
    for (Linear bound : facts.uniformUpperBounds(counter.variable())) {
      Linear range = bound.plus(Linear.constant(1));
      if (range.constant() == 0
          && range.coefficients().size() == 1
          && range.coefficients().keySet().iterator().next() instanceof IndexForm.Scalar scalar
          && range.coefficients().get(scalar) > 0) {
        return new Monomial(range.coefficients().get(scalar), List.of(scalar));
      }
    }
    return null;
  }

  /**
   * The polynomial of an int expression, or null: {@code atAccess} where it is read at the access
   * (its variables' values are those there), else where it is a single assignment's value, which
   * then must read no variable.
   */
  private Poly value(Expr expression, boolean atTheAccess) {
    IndexForm form = atTheAccess ? atAccess.apply(expression) : forms.form(expression);
    if (form instanceof IndexForm.Affine affine) {
      Poly poly = affine(affine);
      if (poly != null) {
        return poly;
      }
    }
    return switch (expression) {
      case Expr.Binary binary -> binary(binary, atTheAccess);
      case Expr.LocalGet get when forms.singleAssignment(get.local()) != null ->
          value(forms.singleAssignment(get.local()), false);
      default -> null;
    };
  }

  private Poly binary(Expr.Binary binary, boolean atTheAccess) {
    Poly left = value(binary.left(), atTheAccess);
    Poly right = value(binary.right(), atTheAccess);
    if (left == null || right == null) {
      return null;
    }
    BinaryOp op = binary.op();
    return switch (op) {
      case ADD -> left.plus(right, 1);
      case SUB -> left.plus(right, -1);
      case MUL -> left.times(right);
      case DIV, REM -> {
        Monomial by = right.positiveMonomial();
        if (by == null
            || !(left.soleAtom() instanceof Digit(Monomial divisor, Monomial radix))
            || radix != null) {
          yield null; // only the global id's top digit divides
        }
        Digit digit =
            op == BinaryOp.DIV ? new Digit(divisor.times(by), null) : new Digit(divisor, by);
        yield Poly.of(new Key(List.of(), digit), 1);
      }
      default -> null;
    };
  }

  /**
   * An affine form as a polynomial, or null where it has a term that is no scalar, variable or id.
   * A variable assigned once is its value (a variable of {@link IndexWalk}'s is any local a
   * statement assigns); another is a counter.
   */
  private Poly affine(IndexForm.Affine form) {
    Poly poly = Poly.of(new Key(List.of(), null), form.constant());
    for (Map.Entry<Term, Integer> entry : form.coefficients().entrySet()) {
      Poly term = term(entry.getKey());
      if (term == null) {
        return null;
      }
      poly = poly.plus(term, entry.getValue());
    }
    return poly;
  }

  private Poly term(Term term) {
    return switch (term) {
      case IndexForm.Scalar scalar -> Poly.of(new Key(List.of(scalar), null), 1);
      case IndexForm.Variable variable when forms.singleAssignment(variable.local()) != null ->
          value(forms.singleAssignment(variable.local()), false);
      case IndexForm.Variable variable -> Poly.of(new Key(List.of(), new Counter(variable)), 1);
      case IndexForm.Id id when id.builtin() == Builtin.GLOBAL_ID && id.axis() == 0 ->
          Poly.of(new Key(List.of(), new Digit(Monomial.ONE, null)), 1);
      case IndexForm.Product(Term first, Term second) -> {
        Poly a = term(first);
        Poly b = term(second);
        yield a == null || b == null ? null : a.times(b);
      }
      default -> null;
    };
  }
}
