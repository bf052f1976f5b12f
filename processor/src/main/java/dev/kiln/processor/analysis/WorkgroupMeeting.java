package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.analysis.IndexForm.Id;
import dev.kiln.processor.analysis.IndexForm.Term;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Workgroup;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Whether two accesses of one workgroup array, made between the same two barriers by two different
 * invocations P and Q of one workgroup, may reach the same element. They never do where
 *
 * <ul>
 *   <li>both indices are proven each invocation's own element ({@link OwnElement}) by one proof:
 *       elements then belong to one invocation each;
 *   <li>or, in every way P and Q can differ (one's local id along an axis above the other's), one
 *       index lies above the other: {@code s[tid]} under {@code tid < s} against {@code s[tid +
 *       s]}. Q's ids and values are its own ({@link IndexForm.Other}); the two share what is the
 *       same for the whole workgroup where both accesses run: scalars, lengths, workgroup ids, and
 *       the locals the caller says are uniform and unchanged between them.
 * </ul>
 *
 * Facts that hold only under a launch bound are not used. Where an index has no affine form but
 * both are functions of the local ids alone ({@link LocalIdFunction}: a mask, a remainder, a xor),
 * every pair of invocations is tried, each over the local ids its facts allow. An index of neither
 * kind (a load, a product with a loop counter) cannot be compared: {@link Outcome#UNKNOWN}. A
 * cooperative-matrix tile may meet any element access of its array; two tiles are compared by their
 * first elements, which misses tiles that overlap from different first elements.
 */
public final class WorkgroupMeeting {
  /** What is known of two accesses, from best to worst. */
  public enum Outcome {
    /** They never reach one element. */
    APART,
    /** They may: the indices are affine and nothing keeps them apart. */
    MAY_MEET,
    /** An index has no affine form to reason with. */
    UNKNOWN
  }

  /**
   * An access's index where it is evaluated.
   *
   * @param form its form, null where it has none
   * @param facts what holds there
   * @param tile whether it is a cooperative-matrix tile's first element: the tile reaches many
   *     elements beyond it, so it may meet any element access of its array; two tiles are compared
   *     by their first elements
   * @param function the index as a function of the local ids, null where it is none
   */
  record Place(Affine form, Constraints facts, boolean tile, LocalIdFunction function) {}

  private final Workgroup workgroup;
  private final Predicate<Local> stable;
  private final Predicate<Local> uniform;

  /**
   * @param stable the locals whose value is the same at both accesses, for each invocation
   * @param uniform the locals whose value is the same for every invocation of the workgroup
   */
  WorkgroupMeeting(Workgroup workgroup, Predicate<Local> stable, Predicate<Local> uniform) {
    this.workgroup = workgroup;
    this.stable = stable;
    this.uniform = uniform;
  }

  /**
   * What is known of P's access at {@code a} (proven own by {@code ownA}, or null) against Q's at
   * {@code b}.
   */
  Outcome meet(Place a, OwnElement ownA, Place b, OwnElement ownB) {
    if (a.tile() != b.tile()) { // a tile's elements against one element: any of them may be it
      return Outcome.MAY_MEET;
    }
    if (a.form() == null || b.form() == null) {
      return a.function() != null && b.function() != null ? tried(a, b) : Outcome.UNKNOWN;
    }
    return sameOwner(ownA, ownB) || apart(a, b) ? Outcome.APART : Outcome.MAY_MEET;
  }

  /**
   * Whether invocations P ≠ Q of the workgroup, each with local ids the facts at its access allow,
   * get one value from {@code a} (P's) and {@code b} (Q's).
   */
  private Outcome tried(Place a, Place b) {
    int[][] rangesA = localIdRanges(a.facts());
    int[][] rangesB = localIdRanges(b.facts());
    java.util.Map<Integer, int[]> reachedBy = new java.util.HashMap<>(); // up to two invocations
    for (int z = rangesA[2][0]; z <= rangesA[2][1]; z++) {
      for (int y = rangesA[1][0]; y <= rangesA[1][1]; y++) {
        for (int x = rangesA[0][0]; x <= rangesA[0][1]; x++) {
          Integer value = a.function().at(x, y, z);
          if (value != null) {
            int invocation = linear(x, y, z);
            reachedBy.merge(
                value,
                new int[] {invocation, invocation},
                (had, next) -> new int[] {had[0], had[0] == had[1] ? invocation : had[1]});
          }
        }
      }
    }
    for (int z = rangesB[2][0]; z <= rangesB[2][1]; z++) {
      for (int y = rangesB[1][0]; y <= rangesB[1][1]; y++) {
        for (int x = rangesB[0][0]; x <= rangesB[0][1]; x++) {
          Integer value = b.function().at(x, y, z);
          int[] by = value == null ? null : reachedBy.get(value);
          int q = linear(x, y, z);
          if (by != null && (by[0] != q || by[1] != q)) {
            return Outcome.MAY_MEET;
          }
        }
      }
    }
    return Outcome.APART;
  }

  private int linear(int x, int y, int z) {
    return (z * workgroup.size(1) + y) * workgroup.size(0) + x;
  }

  /** Per axis, the local ids the facts allow: within the workgroup and any bounds they give. */
  private int[][] localIdRanges(Constraints facts) {
    int[][] ranges = new int[3][];
    for (int axis = 0; axis < 3; axis++) {
      long[] range = facts.intRange(Linear.term(new Id(Builtin.LOCAL_ID, axis)));
      long low = range == null ? 0 : Math.max(0, range[0]);
      long high = workgroup.size(axis) - 1L;
      high = range == null ? high : Math.min(high, range[1]);
      ranges[axis] = new int[] {(int) low, (int) high};
    }
    return ranges;
  }

  /** Both proven own by one proof, its offset the same at both places. */
  private boolean sameOwner(OwnElement a, OwnElement b) {
    return a != null
        && b != null
        && !a.global()
        && a.bounds().isEmpty()
        && b.bounds().isEmpty()
        && a.equals(b)
        && a.offset() instanceof Affine offset
        && offset.coefficients().keySet().stream().allMatch(this::sharedAt);
  }

  /**
   * A term with one value at both places: for each invocation, and, for {@link #shared}, for both.
   */
  private boolean sharedAt(Term term) {
    return switch (term) {
      case IndexForm.Variable variable -> stable.test(variable.local());
      case IndexForm.Product(Term first, Term second) -> sharedAt(first) && sharedAt(second);
      default -> true;
    };
  }

  /** A term with one value for P and Q at both places. */
  private boolean shared(Term term) {
    return switch (term) {
      case Id id -> id.builtin() == Builtin.WORKGROUP_ID || id.builtin() == Builtin.NUM_WORKGROUPS;
      case IndexForm.Scalar scalar -> true;
      case IndexForm.Length length -> true;
      case IndexForm.Grid grid -> true;
      case IndexForm.Variable variable ->
          stable.test(variable.local()) && uniform.test(variable.local());
      case IndexForm.Product(Term first, Term second) -> shared(first) && shared(second);
      case IndexForm.Other other -> false;
    };
  }

  /** {@code term} as Q's: its own where it is not shared. */
  private Term asQ(Term term) {
    if (shared(term)) {
      return term;
    }
    return term instanceof IndexForm.Product(Term first, Term second)
        ? new IndexForm.Product(asQ(first), asQ(second))
        : new IndexForm.Other(term);
  }

  /** In every case of P ≠ Q, P's index and Q's differ. */
  private boolean apart(Place a, Place b) {
    Linear x = Linear.of(a.form());
    Linear y = Constraints.renamed(Linear.of(b.form()), this::asQ);
    Constraints both = a.facts().andRenamed(b.facts(), this::asQ);
    return apart(x, y, both) || digitsApart(x, y, both);
  }

  /**
   * Whether both indices are {@code c·v + r} with {@code r} in {@code [0, |c|)}, {@code v} a term
   * each has (P's own and Q's own: a loop counter at another turn), and the remainders apart: equal
   * indices would need equal {@code v}s and equal remainders ({@code t[k * 32 + tid]} against
   * {@code t[k * 32 + tid + s]} under {@code tid < s <= 16}). What both indices add alike (a
   * constant, a scalar) is taken off first: int indices are equal exactly where they are without
   * it, their sums being taken modulo 2^32 ({@code t[256 + k * 32 + tid]} against {@code t[256 + k
   * * 32 + tid + s]}, a tree over the upper half of an array; {@code t[offset + tid]}).
   */
  private boolean digitsApart(Linear x, Linear y, Constraints both) {
    if (digitsApartAsIs(x, y, both)) {
      return true;
    }
    Linear common = common(x, y);
    return !common.equals(Linear.constant(0))
        && digitsApartAsIs(x.minus(common), y.minus(common), both);
  }

  /**
   * What P's index {@code x} and Q's {@code y} add alike: their constant where it is one, and each
   * term the two share with one coefficient in both.
   */
  private Linear common(Linear x, Linear y) {
    Linear common = Linear.constant(x.constant() == y.constant() ? x.constant() : 0);
    for (Map.Entry<Term, Long> entry : x.coefficients().entrySet()) {
      if (shared(entry.getKey()) && entry.getValue().equals(y.coefficients().get(entry.getKey()))) {
        common = common.plus(Linear.term(entry.getKey()).times(entry.getValue()));
      }
    }
    return common;
  }

  /** {@link #digitsApart} of the indices as they are. */
  private boolean digitsApartAsIs(Linear x, Linear y, Constraints both) {
    for (Map.Entry<Term, Long> entry : x.coefficients().entrySet()) {
      long c = entry.getValue();
      Term theirs = asQ(entry.getKey());
      if (Math.abs(c) < 2 || y.coefficients().getOrDefault(theirs, 0L) != c) {
        continue;
      }
      Linear rx = x.minus(Linear.term(entry.getKey()).times(c));
      Linear ry = y.minus(Linear.term(theirs).times(c));
      Linear top = Linear.constant(Math.abs(c) - 1);
      if (both.nonNegative(rx)
          && both.nonNegative(top.minus(rx))
          && both.nonNegative(ry)
          && both.nonNegative(top.minus(ry))
          && apart(rx, ry, both)) {
        return true;
      }
    }
    return false;
  }

  /** In every case of P ≠ Q, {@code x} (P's) and {@code y} (Q's) differ, under {@code both}. */
  private boolean apart(Linear x, Linear y, Constraints both) {
    for (int axis = 0; axis < 3; axis++) {
      if (workgroup.size(axis) == 1) {
        continue;
      }
      Linear p = Linear.term(new Id(Builtin.LOCAL_ID, axis));
      Linear q = Linear.term(new IndexForm.Other(new Id(Builtin.LOCAL_ID, axis)));
      for (Linear differ :
          List.of(p.minus(q).plus(Linear.constant(-1)), q.minus(p).plus(Linear.constant(-1)))) {
        Constraints facts = both.and(List.of(differ));
        boolean exact =
            facts.withinInt(x) && facts.withinInt(y); // the int indices are the forms' values
        Linear one = Linear.constant(1);
        if (!exact
            || !(facts.nonNegative(x.minus(y).minus(one))
                || facts.nonNegative(y.minus(x).minus(one)))) {
          return false;
        }
      }
    }
    return true;
  }
}
