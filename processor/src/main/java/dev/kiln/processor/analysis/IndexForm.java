package dev.kiln.processor.analysis;

import dev.kiln.processor.ir.Builtin;
import java.util.Map;
import java.util.TreeMap;

/**
 * The symbolic value of an int index: an affine form {@code c + Σ k·term} over invocation ids,
 * scalar parameters and buffer lengths, in 32-bit two's-complement arithmetic (so two equal forms
 * give equal ints even where Java's arithmetic wraps), or {@link Unknown} when the analysis cannot
 * tell.
 */
public sealed interface IndexForm {
  /** A value no affine form describes: a load, a loop-varied local, a product of two ids, … */
  record Unknown() implements IndexForm {}

  /** {@code constant + Σ coefficients[term] · term}; no coefficient is 0. */
  record Affine(Map<Term, Integer> coefficients, int constant) implements IndexForm {
    public Affine {
      TreeMap<Term, Integer> kept = new TreeMap<>();
      coefficients.forEach(
          (term, k) -> {
            if (k != 0) {
              kept.put(term, k);
            }
          });
      coefficients = java.util.Collections.unmodifiableSortedMap(kept);
    }

    public int coefficient(Term term) {
      return coefficients.getOrDefault(term, 0);
    }

    /** Whether every term is the same for all invocations of a launch. */
    public boolean isUniform() {
      return coefficients.keySet().stream().allMatch(Term::isUniform);
    }

    @Override
    public String toString() {
      return text(Term::toString);
    }

    /** The form as the source names it: locals by their names alone, the same in every build. */
    public String named() {
      return text(IndexForm::named);
    }

    private String text(java.util.function.Function<Term, String> names) {
      StringBuilder text = new StringBuilder();
      coefficients.forEach(
          (term, k) ->
              text.append(text.isEmpty() ? "" : " + ")
                  .append(k == 1 ? "" : k + "*")
                  .append(names.apply(term)));
      if (constant != 0 || text.isEmpty()) {
        text.append(text.isEmpty() ? "" : " + ").append(constant);
      }
      return text.toString();
    }
  }

  /** A value an affine form is built on. Terms are ordered so that forms compare structurally. */
  sealed interface Term extends Comparable<Term> {
    /** Whether the term is the same for every invocation of a launch. */
    boolean isUniform();

    /** By {@link #sortKey}. */
    @Override
    default int compareTo(Term other) {
      return sortKey(this).compareTo(sortKey(other));
    }
  }

  /** A term's text with each local by its name alone. */
  private static String named(Term term) {
    return switch (term) {
      case Variable variable -> variable.local().name();
      case Product product -> "(" + named(product.first()) + ")*(" + named(product.second()) + ")";
      case Other other -> "other " + named(other.of());
      default -> term.toString();
    };
  }

  /**
   * A term's text with each local's number written in ten digits: terms then sort by text, and two
   * locals of one name in the order they were made, which is the same in every build of a kernel
   * (the numbers themselves depend on what else javac compiled, and their digits sort otherwise).
   */
  private static String sortKey(Term term) {
    return switch (term) {
      case Variable variable ->
          variable.local().name() + "#" + String.format("%010d", variable.local().id());
      case Product product ->
          "(" + sortKey(product.first()) + ")*(" + sortKey(product.second()) + ")";
      case Other other -> "other " + sortKey(other.of());
      default -> term.toString();
    };
  }

  /** An invocation id along an axis: global, local or workgroup. */
  record Id(Builtin builtin, int axis) implements Term {
    @Override
    public boolean isUniform() {
      return false;
    }

    @Override
    public String toString() {
      return builtin.intrinsic() + "(" + axis + ")";
    }
  }

  /** An int scalar parameter. */
  record Scalar(String name) implements Term {
    @Override
    public boolean isUniform() {
      return true;
    }

    @Override
    public String toString() {
      return "scalar " + name;
    }
  }

  /** A buffer's length. */
  record Length(String buffer) implements Term {
    @Override
    public boolean isUniform() {
      return true;
    }

    @Override
    public String toString() {
      return buffer + ".length";
    }
  }

  /**
   * An arm's grid size along an axis (a kernel's grid: arm 0), which the launch gate compares the
   * global ids with ({@code Expr.InLaunch}): invocations past it do nothing.
   */
  record Grid(int arm, int axis) implements Term {
    @Override
    public boolean isUniform() {
      return true;
    }

    @Override
    public String toString() {
      return "grid" + arm + "(" + axis + ")";
    }
  }

  /**
   * A local variable's value where it is read, for an analysis that tracks where the variable
   * changes ({@link IndexBounds}); {@link IndexForms} itself never makes one.
   */
  record Variable(dev.kiln.processor.ir.Local local) implements Term {
    @Override
    public boolean isUniform() {
      return false;
    }

    @Override
    public String toString() {
      return local.name() + "#" + local.id();
    }
  }

  /**
   * A term's value in a second invocation of the same workgroup, where two invocations' accesses
   * are compared ({@link WorkgroupMeeting}): {@code localId(0)} of the one is not that of the
   * other. Its range is the term's own.
   */
  record Other(Term of) implements Term {
    @Override
    public boolean isUniform() {
      return false;
    }

    @Override
    public String toString() {
      return "other " + of;
    }
  }

  /**
   * The int product of two terms that are not products themselves, in term order: {@code row *
   * cols} with {@code row} an id and {@code cols} a scalar. It is uniform where both factors are.
   */
  record Product(Term first, Term second) implements Term {
    public Product {
      if (first instanceof Product || second instanceof Product) {
        throw new IllegalArgumentException("a product of products: " + first + " * " + second);
      }
      if (first.compareTo(second) > 0) {
        Term swap = first;
        first = second;
        second = swap;
      }
    }

    @Override
    public boolean isUniform() {
      return first.isUniform() && second.isUniform();
    }

    @Override
    public String toString() {
      return "(" + first + ")*(" + second + ")";
    }
  }

  /**
   * Whether {@code term} is the same for every invocation of the dispatch ({@code dispatch}) or of
   * one workgroup, whose workgroup ids it may read.
   */
  static boolean sameForAll(Term term, boolean dispatch) {
    if (dispatch) {
      return term.isUniform();
    }
    return switch (term) {
      case Id id -> id.builtin() == dev.kiln.processor.ir.Builtin.WORKGROUP_ID;
      case Product(Term first, Term second) ->
          sameForAll(first, false) && sameForAll(second, false);
      default -> term.isUniform();
    };
  }

  /**
   * Whether every term of {@code form} is the same for every invocation ({@link #sameForAll(Term,
   * boolean)}).
   */
  static boolean sameForAll(Affine form, boolean dispatch) {
    return form.coefficients().keySet().stream().allMatch(term -> sameForAll(term, dispatch));
  }

  /** Whether {@code term}, or a factor of it, is one that {@code test} accepts. */
  static boolean mentions(Term term, java.util.function.Predicate<Term> test) {
    return test.test(term)
        || term instanceof Product(Term first, Term second)
            && (test.test(first) || test.test(second));
  }

  static IndexForm constant(int value) {
    return new Affine(Map.of(), value);
  }

  static IndexForm term(Term term) {
    return new Affine(Map.of(term, 1), 0);
  }

  /** {@code a + b}. */
  static IndexForm add(IndexForm a, IndexForm b) {
    if (a instanceof Affine x && b instanceof Affine y) {
      Map<Term, Integer> sum = new TreeMap<>(x.coefficients());
      y.coefficients().forEach((term, k) -> sum.merge(term, k, Integer::sum));
      return new Affine(sum, x.constant() + y.constant());
    }
    return new Unknown();
  }

  /** {@code k · a}. */
  static IndexForm scale(IndexForm a, int k) {
    if (a instanceof Affine x) {
      Map<Term, Integer> product = new TreeMap<>();
      x.coefficients().forEach((term, c) -> product.put(term, c * k));
      return new Affine(product, x.constant() * k);
    }
    return new Unknown();
  }

  /**
   * {@code a · b}, where the products of their terms are terms ({@link Product}): it is Unknown
   * where a factor is unknown or a term would be a product of three or more.
   */
  static IndexForm multiply(IndexForm a, IndexForm b) {
    if (!(a instanceof Affine x) || !(b instanceof Affine y)) {
      return new Unknown();
    }
    IndexForm result = constant(x.constant() * y.constant());
    result = add(result, scale(new Affine(x.coefficients(), 0), y.constant()));
    result = add(result, scale(new Affine(y.coefficients(), 0), x.constant()));
    for (Map.Entry<Term, Integer> left : x.coefficients().entrySet()) {
      for (Map.Entry<Term, Integer> right : y.coefficients().entrySet()) {
        if (left.getKey() instanceof Product || right.getKey() instanceof Product) {
          return new Unknown();
        }
        result =
            add(
                result,
                scale(
                    term(new Product(left.getKey(), right.getKey())),
                    left.getValue() * right.getValue()));
      }
    }
    return result;
  }

  /**
   * The form with each term replaced by the form {@code substitution} gives (or kept, for null).
   */
  static IndexForm substitute(
      IndexForm form, java.util.function.Function<Term, IndexForm> substitution) {
    if (!(form instanceof Affine affine)) {
      return form;
    }
    IndexForm result = constant(affine.constant());
    for (Map.Entry<Term, Integer> entry : affine.coefficients().entrySet()) {
      result = add(result, scale(substituteTerm(entry.getKey(), substitution), entry.getValue()));
    }
    return result;
  }

  /** {@code term} as {@code substitution} replaces it, a product as its factors are replaced. */
  private static IndexForm substituteTerm(
      Term term, java.util.function.Function<Term, IndexForm> substitution) {
    IndexForm replaced = substitution.apply(term);
    if (replaced != null) {
      return replaced;
    }
    if (term instanceof Product(Term first, Term second)) {
      return multiply(substituteTerm(first, substitution), substituteTerm(second, substitution));
    }
    return term(term);
  }
}
