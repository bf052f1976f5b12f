package dev.kiln.abi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What would prove a bounds check of a kernel unnecessary, given a launch's values: the processor
 * could not prove the check at compile time ({@code in[y * width + x + width]} is in bounds only
 * where {@code in.length ≥ width · height}), so it hands the runtime the facts that hold at the
 * access and the forms that must not be negative there; the runtime evaluates them with the
 * launch's scalars, lengths and grid, and where every proof of a module holds it runs the module's
 * pipeline with those checks left out ({@link LaunchAbi#CHECKS_SETTLED_SPEC_ID}). A proof that does
 * not hold costs nothing but the checks: the launch runs checked, as it would without proofs.
 *
 * <p>The forms are {@link LaunchForm}s; a grid {@code c1.0} is what the launch gate keeps arm 1's
 * global ids below, and a variable {@code v7} is any int, narrowed by the facts. The launch's
 * values turn scalars and lengths into numbers, ids into the ranges the dispatch gives them, and
 * the facts on one term into that term's range; a target holds where its smallest value over those
 * ranges, less at most two facts on several terms, is at least 0 (as the processor's own proofs
 * reason). A product of a number and a term is that multiple of the term only where the multiple
 * stays in the int range over the term's range, which the evaluation checks.
 *
 * @param targets the forms that must be at least 0
 * @param facts forms known to be at least 0 at the access
 * @param unequal forms known not to be 0 at the access ({@code x != width - 1})
 * @param requires forms that must be at least 0 for the facts to hold, for every invocation of the
 *     launch: of the scalars alone (a comparison with {@code n - 1} says nothing where {@code n -
 *     1} wraps), or of scalars and ids ({@code w * 2048 + 8 * l <= n - 8} says nothing where the
 *     workgroup ids make {@code w * 2048} wrap)
 * @param access the access and its source line, for messages and dumps
 */
public record LaunchProof(
    List<LaunchForm> targets,
    List<LaunchForm> facts,
    List<LaunchForm> unequal,
    List<LaunchForm> requires,
    String access) {
  private static final int MOST_FACTS_PAIRED = 24;
  private static final long[] INT_RANGE = {Integer.MIN_VALUE, Integer.MAX_VALUE};

  /** Copies the lists. */
  public LaunchProof {
    targets = List.copyOf(targets);
    facts = List.copyOf(facts);
    unequal = List.copyOf(unequal);
    requires = List.copyOf(requires);
    Objects.requireNonNull(access);
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("a proof without targets: " + access);
    }
  }

  /**
   * This proof with each parameter named by its index ({@link LaunchForm#numbered}).
   *
   * @param index a parameter's index by its name
   * @return the proof
   */
  public LaunchProof numbered(java.util.function.ToIntFunction<String> index) {
    java.util.function.Function<List<LaunchForm>, List<LaunchForm>> each =
        forms -> forms.stream().map(form -> form.numbered(index)).toList();
    return new LaunchProof(
        each.apply(targets), each.apply(facts), each.apply(unequal), each.apply(requires), access);
  }

  /**
   * The parameters whose values the proof reads, once {@link #numbered}: the int scalars and the
   * buffers (their lengths) its forms name. A launch with the same values of these, and the same
   * grids, gets the same answer.
   *
   * @return their indices
   */
  public java.util.Set<Integer> parameters() {
    java.util.Set<Integer> indices = new java.util.TreeSet<>();
    for (List<LaunchForm> forms : List.of(targets, facts, unequal, requires)) {
      for (LaunchForm form : forms) {
        indices.addAll(form.parameters());
      }
    }
    return indices;
  }

  /**
   * Whether the launch's values prove every target at least 0.
   *
   * @param launch what the launch gives
   * @return whether the check this proof is about can be left out
   */
  public boolean holds(LaunchValues launch) {
    try {
      for (LaunchForm requirement : requires) {
        if (!everywhereNonNegative(requirement, launch)) {
          return false;
        }
      }
      List<long[]> multiples = new ArrayList<>(); // {term index, factor}: a number times a term
      Map<String, Integer> atoms = new HashMap<>();
      List<Concrete> known = new ArrayList<>();
      for (LaunchForm fact : facts) {
        Concrete form = concrete(fact, launch, new Atoms(atoms, multiples));
        if (form != null) { // a fact on something unknown is left out: fewer facts, still sound
          known.add(form);
        }
      }
      List<Concrete> nonZero = new ArrayList<>();
      for (LaunchForm form : unequal) {
        Concrete concrete = concrete(form, launch, new Atoms(atoms, multiples));
        if (concrete != null) {
          nonZero.add(concrete);
        }
      }
      if (known.stream().anyMatch(fact -> fact.terms().isEmpty() && fact.constant() < 0)
          || nonZero.stream().anyMatch(form -> form.terms().isEmpty() && form.constant() == 0)) {
        return true; // a fact the launch's values make false: no invocation reaches the access
      }
      List<Concrete> goals = new ArrayList<>();
      for (LaunchForm target : targets) {
        Concrete form = concrete(target, launch, new Atoms(atoms, multiples));
        if (form == null) {
          return false;
        }
        goals.add(form);
      }
      long[][] ranges = ranges(atoms, known, nonZero, launch);
      for (long[] multiple :
          multiples) { // k·t stands for the int product only where it does not wrap
        long[] range = ranges[(int) multiple[0]];
        long k = multiple[1];
        if (!fitsInt(Math.multiplyExact(range[0], k))
            || !fitsInt(Math.multiplyExact(range[1], k))) {
          return false;
        }
      }
      for (Concrete goal : goals) {
        if (!nonNegative(goal, known, ranges)) {
          return false;
        }
      }
      return true;
    } catch (ArithmeticException outOfLongRange) {
      return false;
    }
  }

  /**
   * Whether {@code form}, of the launch's numbers and invocation ids, is at least 0 for every
   * invocation the launch dispatches: a requirement that the side of a comparison stays within the
   * int range, where its int value is its value as a form.
   */
  private static boolean everywhereNonNegative(LaunchForm form, LaunchValues launch) {
    Atoms atoms = new Atoms(new HashMap<>(), new ArrayList<>());
    Concrete concrete = concrete(form, launch, atoms);
    if (concrete == null) {
      return false;
    }
    long[][] ranges = new long[atoms.numbers().size()][];
    for (Map.Entry<String, Integer> atom : atoms.numbers().entrySet()) {
      String name = atom.getKey();
      if (!isId(name)) {
        return false; // a variable, or a product of two values of an invocation
      }
      ranges[atom.getValue()] = launchRange(name, launch);
    }
    return smallest(concrete, ranges) >= 0;
  }

  /** Whether an atom is an invocation id: {@code g}, {@code l} or {@code w} and its axis. */
  private static boolean isId(String atom) {
    return atom.length() == 2
        && "glw".indexOf(atom.charAt(0)) >= 0
        && atom.charAt(1) >= '0'
        && atom.charAt(1) <= '2';
  }

  /** A form over atoms (ids, variables, products of two of them), by atom number. */
  private record Concrete(long constant, Map<Integer, Long> terms) {}

  /**
   * The atoms of one evaluation, numbered, and the multiples of atoms by numbers that products
   * became.
   */
  private record Atoms(Map<String, Integer> numbers, List<long[]> multiples) {
    int of(String term) {
      return numbers.computeIfAbsent(term, t -> numbers.size());
    }
  }

  /**
   * {@code form} with the launch's numbers in; null where a value is unknown ({@code atoms} null:
   * none may remain).
   */
  private static Concrete concrete(LaunchForm form, LaunchValues launch, Atoms atoms) {
    long constant = form.constant();
    Map<Integer, Long> terms = new HashMap<>();
    for (Map.Entry<String, Long> entry : form.terms().entrySet()) {
      String term = entry.getKey();
      long k = entry.getValue();
      int star = term.indexOf('*');
      String[] factors =
          star < 0
              ? new String[] {term}
              : new String[] {term.substring(0, star), term.substring(star + 1)};
      long number = 1;
      List<String> rest = new ArrayList<>();
      for (String factor : factors) {
        long value = LaunchForm.number(factor, launch);
        if (value == LaunchValues.UNKNOWN) {
          return null;
        } else if (value == LaunchForm.INVOCATION_VALUE) {
          rest.add(factor);
        } else {
          number *= value; // each an int: the product stays in the long range
        }
      }
      if (rest.isEmpty()) {
        constant =
            Math.addExact(
                constant, Math.multiplyExact(k, factors.length == 2 ? (int) number : number));
        continue;
      }
      if (atoms == null) {
        return null;
      }
      int atom = atoms.of(String.join("*", rest));
      if (factors.length == 2 && rest.size() == 1) {
        atoms.multiples().add(new long[] {atom, number});
      }
      terms.merge(atom, Math.multiplyExact(k, number), Math::addExact);
    }
    return new Concrete(constant, terms);
  }

  /**
   * Each atom's range: what the dispatch gives an id, narrowed by the facts and forms not 0 on it
   * alone.
   */
  private static long[][] ranges(
      Map<String, Integer> atoms,
      List<Concrete> facts,
      List<Concrete> nonZero,
      LaunchValues launch) {
    long[][] ranges = new long[atoms.size()][];
    String[] names = new String[atoms.size()];
    atoms.forEach((name, number) -> names[number] = name);
    for (int atom = 0; atom < ranges.length; atom++) {
      ranges[atom] =
          names[atom].contains("*") ? INT_RANGE.clone() : launchRange(names[atom], launch);
    }
    for (int round = 0;
        round < 3;
        round++) { // a form not 0 trims an end the facts made, which may make another
      for (Concrete fact : facts) {
        if (fact.terms().size() == 1) {
          Map.Entry<Integer, Long> only = fact.terms().entrySet().iterator().next();
          long[] range = ranges[only.getKey()];
          long k = only.getValue();
          if (k > 0) { // k·t + c ≥ 0
            range[0] = Math.max(range[0], Math.ceilDiv(-fact.constant(), k));
          } else {
            range[1] = Math.min(range[1], Math.floorDiv(fact.constant(), -k));
          }
        }
      }
      for (Concrete form : nonZero) {
        if (form.terms().size() == 1) {
          Map.Entry<Integer, Long> only = form.terms().entrySet().iterator().next();
          long k = only.getValue();
          if ((k == 1 || k == -1) && Math.abs(form.constant()) <= Integer.MAX_VALUE) {
            long excluded = -form.constant() * k; // k·t + c ≠ 0: t ≠ -c/k
            long[] range = ranges[only.getKey()];
            if (range[0] == excluded) {
              range[0]++;
            }
            if (range[1] == excluded) {
              range[1]--;
            }
          }
        }
      }
    }
    for (int atom = 0;
        atom < ranges.length;
        atom++) { // a product of two atoms: from its factors' ranges
      int star = names[atom].indexOf('*');
      if (star >= 0) {
        Integer first = atoms.get(names[atom].substring(0, star));
        Integer second = atoms.get(names[atom].substring(star + 1));
        long[] a =
            first == null ? launchRange(names[atom].substring(0, star), launch) : ranges[first];
        long[] b =
            second == null ? launchRange(names[atom].substring(star + 1), launch) : ranges[second];
        long[] corners = {
          a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]
        }; // ints: within the long range
        long low = Math.min(Math.min(corners[0], corners[1]), Math.min(corners[2], corners[3]));
        long high = Math.max(Math.max(corners[0], corners[1]), Math.max(corners[2], corners[3]));
        if (fitsInt(low) && fitsInt(high)) {
          ranges[atom][0] = Math.max(ranges[atom][0], low);
          ranges[atom][1] = Math.min(ranges[atom][1], high);
        }
      }
    }
    return ranges;
  }

  /** What the dispatch gives an atom that is not a product. */
  private static long[] launchRange(String atom, LaunchValues launch) {
    int axis = atom.charAt(0) == 'v' ? 0 : Integer.parseInt(atom.substring(1));
    return switch (atom.charAt(0)) {
      case 'g' -> new long[] {0, launch.dispatchedIds(axis) - 1};
      case 'l' -> new long[] {0, launch.workgroupSize(axis) - 1};
      case 'w' -> new long[] {0, launch.dispatchedIds(axis) / launch.workgroupSize(axis) - 1};
      default -> INT_RANGE.clone();
    };
  }

  /**
   * Whether {@code form} is at least 0 over the ranges, less none, one or two of the facts on
   * several atoms.
   */
  private static boolean nonNegative(Concrete form, List<Concrete> facts, long[][] ranges) {
    if (smallest(form, ranges) >= 0) {
      return true;
    }
    List<Concrete> several = facts.stream().filter(fact -> fact.terms().size() > 1).toList();
    for (int i = 0; i < several.size(); i++) {
      Concrete rest = minus(form, several.get(i));
      if (smallest(rest, ranges) >= 0) {
        return true;
      }
      for (int j = i; j < Math.min(several.size(), MOST_FACTS_PAIRED); j++) {
        if (smallest(minus(rest, several.get(j)), ranges) >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  private static long smallest(Concrete form, long[][] ranges) {
    long total = form.constant();
    for (Map.Entry<Integer, Long> entry : form.terms().entrySet()) {
      long[] range = ranges[entry.getKey()];
      long k = entry.getValue();
      if (range[0] > range[1]) {
        return Long.MAX_VALUE; // an empty range: no invocation reaches the access
      }
      total = Math.addExact(total, Math.multiplyExact(k, k > 0 ? range[0] : range[1]));
    }
    return total;
  }

  private static Concrete minus(Concrete a, Concrete b) {
    Map<Integer, Long> terms = new HashMap<>(a.terms());
    b.terms().forEach((atom, k) -> terms.merge(atom, -k, Math::addExact));
    terms.values().removeIf(k -> k == 0);
    return new Concrete(Math.subtractExact(a.constant(), b.constant()), terms);
  }

  private static boolean fitsInt(long value) {
    return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
  }
}
