package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Term;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Facts known at a point of a program, each a {@link Linear} form known to be at least 0, and what
 * follows from them. A term lies in its type's range, narrowed by what the launch guarantees (a
 * local id runs from 0 to the workgroup's size less one; global and workgroup ids and buffer
 * lengths are not negative) and by the facts on it alone; a form is proven non-negative when its
 * smallest value over those ranges is, after subtracting none, one or two of the facts on several
 * terms. That is enough for the guards kernels write ({@code l < stride} with {@code stride ≤ 128}
 * keeps {@code l + stride} below 256) and stays cheap.
 */
final class Constraints {
  private static final int MOST_FACTS_PAIRED = 24;

  /**
   * A fact that holds where each of {@code requirements}, forms of the int scalars alone, is at
   * least 0: a comparison with {@code n - 1} says something of the int {@code n - 1} only where it
   * does not wrap ({@code n > Integer.MIN_VALUE}), which a launch can be required to keep.
   */
  record Conditional(Linear fact, List<Linear> requirements) {}

  private final Workgroup workgroup;
  private final List<Linear> facts;
  private final List<Conditional> conditional;

  private Constraints(Workgroup workgroup, List<Linear> facts, List<Conditional> conditional) {
    this.workgroup = workgroup;
    this.facts = List.copyOf(facts);
    this.conditional = List.copyOf(conditional);
  }

  static Constraints none(Workgroup workgroup) {
    return new Constraints(workgroup, List.of(), List.of());
  }

  /** These facts and {@code more}. */
  Constraints and(List<Linear> more) {
    List<Linear> all = new ArrayList<>(facts);
    all.addAll(more);
    return new Constraints(workgroup, all, conditional);
  }

  /** These facts and the conditional ones {@code more}, used only by {@link #assuming}. */
  Constraints andConditional(List<Conditional> more) {
    List<Conditional> all = new ArrayList<>(conditional);
    all.addAll(more);
    return new Constraints(workgroup, facts, all);
  }

  /** These facts with the conditional ones taken as facts: what holds where their requirements do. */
  Constraints assuming() {
    return new Constraints(workgroup, facts, List.of()).and(conditional.stream().map(Conditional::fact).toList());
  }

  /** The requirements of the conditional facts, which {@link #assuming} assumes. */
  List<Linear> requirements() {
    return conditional.stream().flatMap(c -> c.requirements().stream()).distinct().toList();
  }

  /**
   * A form {@code R = k·s + c}, of one int scalar {@code s} with {@code k > 0} and {@code c ≥ 0},
   * with {@code target = fact + R} for one of these facts: {@code target} holds where {@code R ≥ 0},
   * as it does wherever {@code s ≥ 0} ({@code size - 1 - y} from {@code size - t - 1 - y ≥ 0} where
   * {@code t ≥ 0}, an offset or a size); null where no fact leaves such a rest. A relation between
   * two scalars is not one: the proof must not hang on how the caller sizes its arguments.
   */
  Linear scalarResidual(Linear target) {
    for (Linear fact : facts) {
      Linear rest = target.minus(fact);
      if (rest.coefficients().size() == 1 && rest.constant() >= 0
          && rest.coefficients().entrySet().iterator().next().getKey() instanceof IndexForm.Scalar
          && rest.coefficients().values().iterator().next() > 0) {
        return rest;
      }
    }
    return null;
  }

  /**
   * These facts and {@code other}'s, each of the latter with its terms renamed by {@code rename};
   * conditional facts are left out.
   */
  Constraints andRenamed(Constraints other, java.util.function.UnaryOperator<Term> rename) {
    List<Linear> all = new ArrayList<>(facts);
    for (Linear fact : other.facts) {
      all.add(renamed(fact, rename));
    }
    return new Constraints(workgroup, all, List.of());
  }

  /** {@code form} with each term renamed by {@code rename}. */
  static Linear renamed(Linear form, java.util.function.UnaryOperator<Term> rename) {
    Map<Term, Long> coefficients = new HashMap<>();
    form.coefficients().forEach((term, k) -> coefficients.merge(rename.apply(term), k, Math::addExact));
    return new Linear(coefficients, form.constant());
  }

  /** The facts that do not mention a term {@code stale} accepts, as a term or a factor of one. */
  Constraints without(Predicate<Term> stale) {
    Predicate<Linear> fresh = form -> form.coefficients().keySet().stream()
        .noneMatch(term -> IndexForm.mentions(term, stale));
    return new Constraints(workgroup, facts.stream().filter(fresh).toList(),
        conditional.stream().filter(c -> fresh.test(c.fact())).toList());
  }

  /** Whether {@code form} is at least 0 wherever these facts hold. */
  boolean nonNegative(Linear form) {
    try {
      Map<Term, long[]> ranges = ranges();
      if (smallest(form, ranges) >= 0) {
        return true;
      }
      List<Linear> several = facts.stream().filter(fact -> fact.coefficients().size() > 1).toList();
      for (int i = 0; i < several.size(); i++) {
        Linear rest = form.minus(several.get(i));
        if (smallest(rest, ranges) >= 0) {
          return true;
        }
        for (int j = i; j < Math.min(several.size(), MOST_FACTS_PAIRED); j++) {
          if (smallest(rest.minus(several.get(j)), ranges) >= 0) {
            return true;
          }
        }
      }
    } catch (ArithmeticException outOfLongRange) {
      return false;
    }
    return false;
  }

  /**
   * The largest value {@code form} takes over its terms' ranges ({@code Long.MAX_VALUE} where that
   * leaves the long range); the facts on several terms are not used.
   */
  long largest(Linear form) {
    try {
      return -smallest(form.times(-1), ranges());
    } catch (ArithmeticException outOfLongRange) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * The smallest and the largest value {@code form} takes over its terms' ranges, the facts on
   * several terms not used; null where either leaves the int range (the int value may then wrap).
   */
  long[] intRange(Linear form) {
    try {
      Map<Term, long[]> ranges = ranges();
      long low = smallest(form, ranges);
      long high = -smallest(form.times(-1), ranges);
      return low >= Integer.MIN_VALUE && high <= Integer.MAX_VALUE ? new long[] {low, high} : null;
    } catch (ArithmeticException outOfLongRange) {
      return null;
    }
  }

  /**
   * The forms {@code U}, the same for every invocation, of the facts {@code U - term ≥ 0}: bounds
   * from above of {@code term} ({@code i < n} gives {@code n - 1}).
   */
  List<Linear> uniformUpperBounds(Term term) {
    List<Linear> bounds = new ArrayList<>();
    for (Linear fact : facts) {
      if (fact.coefficients().getOrDefault(term, 0L) == -1 && fact.coefficients().keySet().stream()
          .allMatch(other -> other.equals(term) || other.isUniform())) {
        bounds.add(fact.plus(Linear.term(term)));
      }
    }
    return bounds;
  }

  /** Whether {@code form}'s value lies in the int range wherever these facts hold. */
  boolean withinInt(Linear form) {
    try {
      Map<Term, long[]> ranges = ranges();
      return smallest(form, ranges) >= Integer.MIN_VALUE && -smallest(form.times(-1), ranges) <= Integer.MAX_VALUE;
    } catch (ArithmeticException outOfLongRange) {
      return false;
    }
  }

  /** The smallest value of {@code form} with each term anywhere in its range. */
  private long smallest(Linear form, Map<Term, long[]> ranges) {
    long total = form.constant();
    for (Map.Entry<Term, Long> entry : form.coefficients().entrySet()) {
      long[] range = range(entry.getKey(), ranges);
      long k = entry.getValue();
      total = Math.addExact(total, Math.multiplyExact(k, k > 0 ? range[0] : range[1]));
    }
    return total;
  }

  /**
   * The range of {@code term}: what {@code ranges} knows, and for a product what its factors' ranges
   * give where the exact product stays in the int range (the int product is then the exact one).
   */
  private long[] range(Term term, Map<Term, long[]> ranges) {
    long[] known = ranges.getOrDefault(term, typeRange(term));
    if (!(term instanceof IndexForm.Product(Term first, Term second))) {
      return known;
    }
    long[] a = range(first, ranges);
    long[] b = range(second, ranges);
    long[] corners = {a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]}; // |int|·|int| < 2^62
    long low = Math.min(Math.min(corners[0], corners[1]), Math.min(corners[2], corners[3]));
    long high = Math.max(Math.max(corners[0], corners[1]), Math.max(corners[2], corners[3]));
    if (low < Integer.MIN_VALUE || high > Integer.MAX_VALUE) {
      return known;
    }
    return new long[] {Math.max(low, known[0]), Math.min(high, known[1])};
  }

  /** Each term's range: {@link #typeRange}, narrowed by the facts on that term alone. */
  private Map<Term, long[]> ranges() {
    Map<Term, long[]> ranges = new HashMap<>();
    for (Linear fact : facts) {
      if (fact.coefficients().size() != 1) {
        continue;
      }
      Map.Entry<Term, Long> only = fact.coefficients().entrySet().iterator().next();
      long[] range = ranges.computeIfAbsent(only.getKey(), this::typeRange);
      long k = only.getValue();
      long c = fact.constant(); // k·t + c ≥ 0
      if (k > 0) {
        range[0] = Math.max(range[0], Math.ceilDiv(-c, k));
      } else {
        range[1] = Math.min(range[1], Math.floorDiv(c, -k));
      }
    }
    return ranges;
  }

  private long[] typeRange(Term term) {
    return switch (term) {
      case IndexForm.Id id -> switch (id.builtin()) {
        case LOCAL_ID -> new long[] {0, workgroup.size(id.axis()) - 1};
        // the runtime refuses a launch whose grid, in whole workgroups, exceeds the int range
        case GLOBAL_ID, WORKGROUP_ID -> new long[] {0, Integer.MAX_VALUE};
        case NUM_WORKGROUPS -> new long[] {1, Integer.MAX_VALUE};
      };
      case IndexForm.Length length -> new long[] {0, Integer.MAX_VALUE};
      case IndexForm.Scalar scalar -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      case IndexForm.Variable variable -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      case IndexForm.Other other -> typeRange(other.of());
      case IndexForm.Product product -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
    };
  }
}
