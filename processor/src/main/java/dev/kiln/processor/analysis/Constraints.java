package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchForm;
import dev.kiln.abi.LaunchProof;
import dev.kiln.processor.analysis.IndexForm.Term;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

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
   * A fact that holds where each of {@code requirements} is at least 0: a comparison with {@code n
   * - 1} says something of the int {@code n - 1} only where it does not wrap ({@code n >
   * Integer.MIN_VALUE}), which a launch can be required to keep. Where {@code unequal}, the fact is
   * that the form is not 0, rather than at least 0. Requirements of the int scalars alone may bind
   * a launch ({@link #assuming}); those that name ids too ({@code w * 2048 + 8 * l} within the int
   * range) serve launch proofs alone, which evaluate them over every invocation of the launch.
   */
  record Conditional(Linear fact, List<Linear> requirements, boolean unequal) {
    /** Whether every requirement is a form of the int scalars alone. */
    boolean ofScalars() {
      return requirements.stream()
          .allMatch(
              form ->
                  form.coefficients().keySet().stream()
                      .allMatch(term -> term instanceof IndexForm.Scalar));
    }
  }

  private final Workgroup workgroup;
  private final List<Linear> facts;
  private final List<Conditional> conditional;

  /**
   * Forms known not to be 0 ({@code x != width - 1}): one on a single term with coefficient ±1
   * trims its range where the facts put an end on the excluded value.
   */
  private final List<Linear> unequal;

  private Constraints(
      Workgroup workgroup,
      List<Linear> facts,
      List<Conditional> conditional,
      List<Linear> unequal) {
    this.workgroup = workgroup;
    this.facts = List.copyOf(facts);
    this.conditional = List.copyOf(conditional);
    this.unequal = List.copyOf(unequal);
  }

  static Constraints none(Workgroup workgroup) {
    return new Constraints(workgroup, List.of(), List.of(), List.of());
  }

  /** These facts and {@code more}. */
  Constraints and(List<Linear> more) {
    List<Linear> all = new ArrayList<>(facts);
    all.addAll(more);
    return new Constraints(workgroup, all, conditional, unequal);
  }

  /**
   * These facts and the conditional ones {@code more}, used only by {@link #assuming} and launch
   * proofs.
   */
  Constraints andConditional(List<Conditional> more) {
    List<Conditional> all = new ArrayList<>(conditional);
    all.addAll(more);
    return new Constraints(workgroup, facts, all, unequal);
  }

  /** These facts and the forms {@code more}, known not to be 0. */
  Constraints andUnequal(List<Linear> more) {
    List<Linear> all = new ArrayList<>(unequal);
    all.addAll(more);
    return new Constraints(workgroup, facts, conditional, all);
  }

  /**
   * These facts with the conditional facts at least 0 taken as facts: what holds where their
   * requirements, of the int scalars alone, do (those not 0, and those whose requirements name ids,
   * serve launch proofs alone, {@link #launchProof}).
   */
  Constraints assuming() {
    return new Constraints(workgroup, facts, List.of(), unequal)
        .and(
            conditional.stream()
                .filter(c -> !c.unequal() && c.ofScalars())
                .map(Conditional::fact)
                .toList());
  }

  /** The requirements of the conditional facts, which {@link #assuming} assumes. */
  List<Linear> requirements() {
    return conditional.stream()
        .filter(c -> !c.unequal() && c.ofScalars())
        .flatMap(c -> c.requirements().stream())
        .distinct()
        .toList();
  }

  /**
   * What would prove {@code targets} at least 0 at a launch ({@link LaunchProof}): these facts, the
   * conditional ones with their requirements, and the forms not 0, in the proof's terms. A fact on
   * a term a proof cannot name is left out; null where a target has such a term.
   *
   * @param targets the forms to prove
   * @param access the access and its line, for the runtime's dumps
   * @param variables each local variable's number in the proof (null for one it cannot name): a
   *     number of the program's own, so that a module does not depend on what else javac compiled
   * @return the proof, or null
   */
  LaunchProof launchProof(List<Linear> targets, String access, Function<Local, Integer> variables) {
    Function<List<Linear>, List<LaunchForm>> forms = linear -> forms(linear, variables);
    List<LaunchForm> goals = forms.apply(targets);
    if (goals.size() < targets.size()) {
      return null;
    }
    List<Linear> conditionalFacts = new ArrayList<>();
    List<Linear> conditionalUnequal = new ArrayList<>();
    conditional.forEach(c -> (c.unequal() ? conditionalUnequal : conditionalFacts).add(c.fact()));
    List<Linear> known = new ArrayList<>(facts);
    known.addAll(conditionalFacts);
    List<Linear> notZero = new ArrayList<>(unequal);
    notZero.addAll(conditionalUnequal);
    List<Linear> requirements =
        conditional.stream().flatMap(c -> c.requirements().stream()).distinct().toList();
    List<LaunchForm> required = forms.apply(requirements);
    if (required.size() < requirements.size()) {
      return null;
    }
    return new LaunchProof(goals, forms.apply(known), forms.apply(notZero), required, access);
  }

  /** The forms a launch proof can write, in its terms; those it cannot are left out. */
  private static List<LaunchForm> forms(List<Linear> linear, Function<Local, Integer> variables) {
    List<LaunchForm> forms = new ArrayList<>();
    for (Linear form : linear) {
      Map<String, Long> terms = new java.util.TreeMap<>();
      boolean named = true;
      for (Map.Entry<Term, Long> entry : form.coefficients().entrySet()) {
        String name = launchName(entry.getKey(), variables);
        named &= name != null;
        if (name != null) {
          terms.merge(name, entry.getValue(), Math::addExact);
        }
      }
      if (named) {
        forms.add(new LaunchForm(form.constant(), terms));
      }
    }
    return forms;
  }

  /** A term as a launch proof names it; null for one it cannot name. */
  private static String launchName(Term term, Function<Local, Integer> variables) {
    return switch (term) {
      case IndexForm.Id id ->
          switch (id.builtin()) {
            case GLOBAL_ID -> "g" + id.axis();
            case LOCAL_ID -> "l" + id.axis();
            case WORKGROUP_ID -> "w" + id.axis();
            case NUM_WORKGROUPS -> "d" + id.axis();
          };
      case IndexForm.Scalar scalar -> identifier(scalar.name()) ? "s:" + scalar.name() : null;
      case IndexForm.Length length -> identifier(length.buffer()) ? "n:" + length.buffer() : null;
      case IndexForm.Grid grid -> "c" + grid.arm() + "." + grid.axis();
      case IndexForm.Variable variable ->
          variables.apply(variable.local()) == null
              ? null
              : "v" + variables.apply(variable.local());
      case IndexForm.Product(Term first, Term second) -> {
        String a = launchName(first, variables);
        String b = launchName(second, variables);
        yield a == null || b == null ? null : a + "*" + b;
      }
      case IndexForm.Other other -> null;
    };
  }

  private static boolean identifier(String name) {
    return !name.isEmpty()
        && Character.isJavaIdentifierStart(name.charAt(0))
        && name.chars().allMatch(Character::isJavaIdentifierPart);
  }

  /**
   * A form {@code R = k·s + c}, of one int scalar {@code s} with {@code k > 0} and {@code c ≥ 0},
   * with {@code target = fact + R} for one of these facts: {@code target} holds where {@code R ≥
   * 0}, as it does wherever {@code s ≥ 0} ({@code size - 1 - y} from {@code size - t - 1 - y ≥ 0}
   * where {@code t ≥ 0}, an offset or a size); null where no fact leaves such a rest. A relation
   * between two scalars is not one: the proof must not hang on how the caller sizes its arguments.
   */
  Linear scalarResidual(Linear target) {
    for (Linear fact : facts) {
      Linear rest = target.minus(fact);
      if (rest.coefficients().size() == 1
          && rest.constant() >= 0
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
    return new Constraints(workgroup, all, List.of(), List.of());
  }

  /** {@code form} with each term renamed by {@code rename}. */
  static Linear renamed(Linear form, java.util.function.UnaryOperator<Term> rename) {
    Map<Term, Long> coefficients = new HashMap<>();
    form.coefficients()
        .forEach((term, k) -> coefficients.merge(rename.apply(term), k, Math::addExact));
    return new Linear(coefficients, form.constant());
  }

  /** The facts that do not mention a term {@code stale} accepts, as a term or a factor of one. */
  Constraints without(Predicate<Term> stale) {
    Predicate<Linear> fresh =
        form ->
            form.coefficients().keySet().stream()
                .noneMatch(term -> IndexForm.mentions(term, stale));
    return new Constraints(
        workgroup,
        facts.stream().filter(fresh).toList(),
        conditional.stream().filter(c -> fresh.test(c.fact())).toList(),
        unequal.stream().filter(fresh).toList());
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
   * from above of {@code term} ({@code i < n} gives {@code n - 1}); and through one variable
   * bounded so itself ({@code c < last} with {@code last <= cols}, as {@code last = min(cols, ...)}
   * says, gives {@code cols - 1}).
   */
  List<Linear> uniformUpperBounds(Term term) {
    List<Linear> bounds = new ArrayList<>(directUpperBounds(term));
    for (Linear fact : facts) {
      if (fact.coefficients().getOrDefault(term, 0L) != -1) {
        continue;
      }
      Linear above = fact.plus(Linear.term(term)); // term ≤ above
      List<Term> varying =
          above.coefficients().keySet().stream().filter(other -> !other.isUniform()).toList();
      if (varying.size() == 1 && above.coefficients().get(varying.get(0)) == 1) {
        Linear rest = above.minus(Linear.term(varying.get(0)));
        for (Linear bound : directUpperBounds(varying.get(0))) {
          bounds.add(rest.plus(bound));
        }
      }
    }
    return bounds;
  }

  /**
   * The uniform upper bounds of {@code term} that one conditional fact at least 0 gives, each with
   * that fact's requirements, of the int scalars alone: {@code col <= n - 8}, where {@code n - 8}
   * may wrap, bounds {@code col} by {@code n - 8} where a launch keeps that an int.
   */
  List<Conditional> conditionalUpperBounds(Term term) {
    List<Conditional> bounds = new ArrayList<>();
    for (Conditional fact : conditional) {
      if (!fact.unequal() && fact.ofScalars()) {
        for (Linear bound : and(List.of(fact.fact())).uniformUpperBounds(term)) {
          bounds.add(new Conditional(bound, fact.requirements(), false));
        }
      }
    }
    return bounds;
  }

  /** The uniform forms {@code U} of the facts {@code U - term ≥ 0}, read directly. */
  private List<Linear> directUpperBounds(Term term) {
    List<Linear> bounds = new ArrayList<>();
    for (Linear fact : facts) {
      if (fact.coefficients().getOrDefault(term, 0L) == -1
          && fact.coefficients().keySet().stream()
              .allMatch(other -> other.equals(term) || other.isUniform())) {
        bounds.add(fact.plus(Linear.term(term)));
      }
    }
    return bounds;
  }

  /**
   * Whether some fact, conditional or not, mentions each local variable in {@code term} (the term
   * itself, or a factor of a product): a variable none mentions has no range.
   */
  boolean boundsVariablesOf(Term term) {
    List<Term> variables =
        switch (term) {
          case IndexForm.Variable variable -> List.of(variable);
          case IndexForm.Product(Term first, Term second) ->
              Stream.of(first, second).filter(IndexForm.Variable.class::isInstance).toList();
          default -> List.of();
        };
    List<Linear> all = new ArrayList<>(facts);
    all.addAll(unequal);
    conditional.forEach(c -> all.add(c.fact()));
    return variables.stream()
        .allMatch(
            variable ->
                all.stream()
                    .anyMatch(
                        form ->
                            form.coefficients().keySet().stream()
                                .anyMatch(t -> IndexForm.mentions(t, variable::equals))));
  }

  /** Whether {@code form}'s value lies in the int range wherever these facts hold. */
  boolean withinInt(Linear form) {
    try {
      Map<Term, long[]> ranges = ranges();
      return smallest(form, ranges) >= Integer.MIN_VALUE
          && -smallest(form.times(-1), ranges) <= Integer.MAX_VALUE;
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
   * The range of {@code term}: what {@code ranges} knows, and for a product what its factors'
   * ranges give where the exact product stays in the int range (the int product is then the exact
   * one).
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
    for (Linear form : unequal) {
      if (form.coefficients().size() == 1) {
        Map.Entry<Term, Long> only = form.coefficients().entrySet().iterator().next();
        long k = only.getValue();
        long[] range = ranges.computeIfAbsent(only.getKey(), this::typeRange);
        if (k == 1 || k == -1) { // k·t + c ≠ 0: t ≠ -c·k
          long excluded = -form.constant() * k;
          range[0] += range[0] == excluded ? 1 : 0;
          range[1] -= range[1] == excluded ? 1 : 0;
        }
      }
    }
    return ranges;
  }

  private long[] typeRange(Term term) {
    return switch (term) {
      case IndexForm.Id id ->
          switch (id.builtin()) {
            case LOCAL_ID -> new long[] {0, workgroup.size(id.axis()) - 1};
            // the runtime refuses a launch whose grid, in whole workgroups, exceeds the int range
            case GLOBAL_ID, WORKGROUP_ID -> new long[] {0, Integer.MAX_VALUE};
            case NUM_WORKGROUPS -> new long[] {1, Integer.MAX_VALUE};
          };
      case IndexForm.Length length -> new long[] {0, Integer.MAX_VALUE};
      case IndexForm.Grid grid -> new long[] {0, Integer.MAX_VALUE};
      case IndexForm.Scalar scalar -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      case IndexForm.Variable variable -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
      case IndexForm.Other other -> typeRange(other.of());
      case IndexForm.Product product -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
    };
  }
}
