package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchForm;
import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.analysis.IndexForm.Id;
import dev.kiln.processor.analysis.IndexForm.Product;
import dev.kiln.processor.analysis.IndexForm.Term;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A proof that an access's index is its invocation's own element: no other invocation that reaches
 * the access gets the same int value, among those of the dispatch for a buffer ({@code global}), or
 * of the workgroup for a workgroup array. The index is {@code scale·(digit + stride·rest) +
 * offset}:
 *
 * <ul>
 *   <li>{@code offset} is the same for all those invocations;
 *   <li>{@code digit} is an id (global for a buffer, local for a workgroup array), proven inside
 *       {@code [0, stride)} where the access is ({@code col < cols}), or anything where there is no
 *       stride;
 *   <li>{@code rest}, where there is a stride, is another id or a local (a loop counter), proven at
 *       least 0 and below a bound that is the same for all: {@code row * cols + col} and {@code
 *       pointId + npoints * i} are two;
 *   <li>or, the other way round, {@code digit} is a local proven inside {@code [0, stride)} and
 *       {@code rest} an id: {@code row * n + j}, {@code j} a loop counter below {@code n}, is the
 *       row's own.
 * </ul>
 *
 * The values {@code digit + stride·rest} are then distinct numbers for distinct pairs, and {@code
 * scale} times them distinct ints while they stay below {@code 2^32 / 2^t}, t the trailing zeros of
 * {@code scale}. Every axis along which the workgroup is longer than 1 must have its id recovered
 * as the digit or the rest. Where the wrap is not excluded at compile time, and where the launch's
 * grid may be longer than 1 along an axis with no id recovered (the depth of a {@code {16, 16}}
 * workgroup's grid), {@code bounds} say what the launch must keep (their reasons empty: {@link
 * #bounds(String)} names the access).
 */
public record OwnElement(
    boolean global,
    int scale,
    Term digit,
    Linear stride,
    Term rest,
    IndexForm offset,
    Map<Integer, Long> pinned,
    List<LaunchBound> bounds) {
  private static final long INT_WRAP = 1L << 32;

  public OwnElement {
    pinned = Map.copyOf(pinned);
    bounds = List.copyOf(bounds);
  }

  /** This proof with {@code other} bounds. */
  OwnElement withBounds(List<LaunchBound> other) {
    return new OwnElement(global, scale, digit, stride, rest, offset, pinned, other);
  }

  /** The bounds, with {@code reason} for each. */
  public List<LaunchBound> bounds(String reason) {
    return bounds.stream()
        .map(bound -> new LaunchBound(bound.limit(), bound.factors(), reason))
        .toList();
  }

  /**
   * Whether an access whose index this proves, and one whose index {@code other} proves, meet only
   * within one invocation: both of a buffer, with equal scale, digit, stride and offset, so that
   * equal values have equal digits and equal rests; where a rest is an id, both must be that id,
   * and the axes pinned must be pinned to the same values ({@code y == 0} and {@code y == 1} are
   * other invocations).
   *
   * @param other the other access's proof
   * @return whether they do
   */
  public boolean sameLane(OwnElement other) {
    boolean rests =
        rest instanceof Id || other.rest instanceof Id
            ? Objects.equals(rest, other.rest)
            : (rest == null) == (other.rest == null);
    return global
        && other.global
        && scale == other.scale
        && digit.equals(other.digit)
        && Objects.equals(stride, other.stride)
        && offset.equals(other.offset)
        && rests
        && pinned.equals(other.pinned);
  }

  /**
   * The proof for an access at {@code form} where {@code facts} hold, or null.
   *
   * @param form the index's form
   * @param facts what is known at the access
   * @param workgroup the program's workgroup
   * @param global whether the array is a buffer (else a workgroup array)
   * @param carriers the loop counters at the access that carry an id ({@code
   *     LoopCounters.carriedId}), each with its id
   * @return the proof, or null
   */
  static OwnElement prove(
      Affine form,
      Constraints facts,
      Workgroup workgroup,
      boolean global,
      Map<Term, LoopCounters.Carried> carriers) {
    Affine own = global ? form : splitGlobalIds(form, workgroup);
    Map<Term, Integer> varying = new TreeMap<>();
    Map<Term, Integer> same = new TreeMap<>();
    own.coefficients()
        .forEach((term, k) -> (IndexForm.sameForAll(term, global) ? same : varying).put(term, k));
    IndexForm offset = new Affine(same, own.constant());
    Builtin ids = global ? Builtin.GLOBAL_ID : Builtin.LOCAL_ID;
    for (Map.Entry<Term, Integer> candidate : varying.entrySet()) {
      if (candidate.getKey() instanceof Id digit && digit.builtin() == ids) {
        OwnElement proof =
            withDigit(
                digit, ids, candidate.getValue(), varying, offset, facts, workgroup, global, null);
        if (proof != null) {
          return proof;
        }
      }
    }
    for (Map.Entry<Term, Integer> candidate : varying.entrySet()) {
      if (candidate.getKey() instanceof IndexForm.Variable counter) {
        OwnElement proof =
            withDigit(
                counter,
                ids,
                candidate.getValue(),
                varying,
                offset,
                facts,
                workgroup,
                global,
                carriers.get(counter));
        if (proof != null) {
          return proof;
        }
      }
    }
    return null;
  }

  private static OwnElement withDigit(
      Term digit,
      Builtin ids,
      int scale,
      Map<Term, Integer> varying,
      IndexForm offset,
      Constraints facts,
      Workgroup workgroup,
      boolean global,
      LoopCounters.Carried carrier) {
    Id carried = carrier == null ? null : carrier.id();
    Term rest = null;
    Linear stride = Linear.constant(0);
    List<Linear> assumptions = new ArrayList<>();
    for (Map.Entry<Term, Integer> entry : varying.entrySet()) {
      Term term = entry.getKey();
      if (term.equals(digit)) {
        continue;
      }
      int k = entry.getValue();
      int c = k / scale;
      if (c * scale != k) {
        return null;
      }
      Term factor = term;
      Linear coefficient = Linear.constant(c);
      if (term instanceof Product(Term first, Term second)) {
        boolean firstSame = IndexForm.sameForAll(first, global);
        if (firstSame == IndexForm.sameForAll(second, global)) {
          return null;
        }
        factor = firstSame ? second : first;
        coefficient = Linear.term(firstSame ? first : second).times(c);
      }
      boolean anId = factor instanceof Id id && id.builtin() == ids;
      if (rest != null && !rest.equals(factor)
          || factor.equals(digit)
          || !(anId
              || factor instanceof IndexForm.Variable && digit instanceof Id
              || workgroupOf(carried, factor, global))) {
        return null; // a counter digit needs an id for its rest: two counters tell no lanes apart
      }
      rest = factor;
      stride = stride.plus(coefficient);
    }
    int twos = Integer.numberOfTrailingZeros(scale);
    List<LaunchForm> wrap = new ArrayList<>(List.of(LaunchForm.of(1L << twos)));
    Set<Integer> recovered = new java.util.HashSet<>();
    long wrapLimit = INT_WRAP;
    if (digit instanceof Id id) {
      recovered.add(id.axis());
    }
    if (carried != null && carried.builtin() == ids) {
      recovered.add(carried.axis()); // a counter that carries the array's id
    }
    if (rest == null) {
      if (digit instanceof Id id) {
        wrap.add(extent(id, workgroup, global));
      } else if (carried != null
          && carried.builtin() == ids
          && nonNegative(digit, carrier, facts, assumptions)) {
        LaunchForm values = counterExtent(digit, facts);
        if (values == null) {
          return null;
        }
        wrap.add(values);
      } else {
        return null; // a counter alone is no invocation's own
      }
      stride = null;
    } else {
      // digit in [0, stride) and rest in [0, bound]: the digits' values are distinct numbers
      if (!(digit instanceof Id) && !nonNegative(digit, carrier, facts, assumptions)) {
        return null;
      }
      Linear digitFits = stride.minus(Linear.term(digit)).plus(Linear.constant(-1));
      if (!facts.nonNegative(Linear.term(rest))) {
        return null;
      }
      if (!facts.nonNegative(digitFits)) {
        // where the guard's bound may wrap (col < cols - 1), or leaves a rest of scalars
        // (y < size - t, t ≥ 0), the launch must keep what the proof assumes
        Constraints assuming = facts.assuming();
        if (!assuming.nonNegative(digitFits)) {
          Linear leftOver = assuming.scalarResidual(digitFits);
          if (leftOver == null) {
            return null;
          }
          assumptions.add(leftOver);
        }
        assumptions.addAll(facts.requirements());
      }
      LaunchForm restExtent =
          rest instanceof Id id ? extent(id, workgroup, global) : counterExtent(rest, facts);
      if (workgroupOf(carried, rest, global)) {
        // the workgroup id and the local id the counter carries tell the invocation along the
        // axis; the rounded grid counts the workgroups' ids, size times their number
        recovered.add(carried.axis());
        wrapLimit *= workgroup.size(carried.axis());
        restExtent = LaunchForm.roundedGrid(0, carried.axis());
      }
      LaunchForm strideFactor = factor(stride);
      if (restExtent == null || strideFactor == null) {
        return null;
      }
      wrap.add(strideFactor);
      wrap.add(restExtent);
      if (rest instanceof Id id && id.builtin() == ids) {
        recovered.add(id.axis());
      }
    }
    List<LaunchBound> bounds = new ArrayList<>();
    bounds.add(new LaunchBound(wrapLimit, wrap, ""));
    if (carrier != null && carrier.bound() != null) {
      bounds.add(carrier.bound()); // the counter carries the global id only while it cannot wrap
    }
    for (Linear assumption :
        assumptions.stream()
            .distinct()
            .toList()) { // assumption ≥ 0: its negation, as a factor, at most 0
      LaunchForm negated = factor(assumption.times(-1));
      if (negated == null) {
        return null;
      }
      bounds.add(new LaunchBound(0, List.of(negated), ""));
    }
    // the other axes: a workgroup longer than 1 along one says that launches are (no id recovered
    // there: other invocations share the element); along the others the launch keeps a grid of 1,
    // as a kernel of a one-dimensional workgroup, launched over a count, always does (an arm of one
    // in a group launched over grids may not)
    Map<Integer, Long> pinned = new java.util.TreeMap<>();
    for (int axis = 0; axis < 3; axis++) {
      Linear id = Linear.term(new Id(ids, axis));
      if (recovered.contains(axis)) {
        continue;
      }
      long largest = facts.largest(id);
      if (largest == -facts.largest(id.times(-1))) {
        pinned.put(axis, largest); // one value for all that reach the access (if (y == 0))
        continue;
      }
      if (workgroup.size(axis) > 1) {
        return null;
      }
      if (global) {
        bounds.add(new LaunchBound(1, List.of(LaunchForm.roundedGrid(0, axis)), ""));
      }
    }
    List<LaunchBound> needed = needed(bounds, facts);
    return needed == null
        ? null
        : new OwnElement(global, scale, digit, stride, rest, offset, pinned, needed);
  }

  /**
   * Of {@code bounds}, those the launch decides ({@link #staticallyHolds}); null where one fails
   * for every launch.
   */
  static List<LaunchBound> needed(List<LaunchBound> bounds, Constraints facts) {
    List<LaunchBound> needed = new ArrayList<>();
    for (LaunchBound bound : bounds) {
      Boolean known = staticallyHolds(bound, facts);
      if (Boolean.FALSE.equals(known)) {
        return null;
      }
      if (known == null) {
        needed.add(bound);
      }
    }
    return needed;
  }

  /**
   * Whether a counter digit is at least 0: known; for one that carries the global id, where it
   * starts at least at 0 (it rises from there while the launch keeps the carrier's bound); for one
   * that carries a local id, where the launch keeps the requirements of the facts that say it rises
   * ({@code LoopCounters.conditionalRise}), which join {@code assumptions}.
   */
  private static boolean nonNegative(
      Term digit, LoopCounters.Carried carrier, Constraints facts, List<Linear> assumptions) {
    if (facts.nonNegative(Linear.term(digit))) {
      return true;
    }
    if (carrier != null && carrier.bound() != null) {
      return facts.nonNegative(carrier.start()); // it rises from there, its bound kept
    }
    if (carrier == null || !facts.assuming().nonNegative(Linear.term(digit))) {
      return false;
    }
    assumptions.addAll(facts.requirements());
    return true;
  }

  /**
   * Whether {@code factor}, a buffer index's rest, is the workgroup id along the axis of the local
   * id that the digit, a counter, carries: together they are the global id.
   */
  private static boolean workgroupOf(Id carried, Term factor, boolean global) {
    return global
        && carried != null
        && factor instanceof Id id
        && id.builtin() == Builtin.WORKGROUP_ID
        && id.axis() == carried.axis();
  }

  /**
   * Whether {@code bound} holds for every launch (its factors' largest values, constants for
   * constants, {@code Integer.MAX_VALUE} for a grid, keep it), fails for every launch (all its
   * factors are constants and break it), or null: the launch decides.
   */
  private static Boolean staticallyHolds(LaunchBound bound, Constraints facts) {
    long product = 1;
    boolean constants = true;
    for (LaunchForm factor : bound.factors()) {
      long largest;
      if (factor.terms().keySet().stream().anyMatch(term -> term.startsWith("r"))) { // a grid
        largest = Integer.MAX_VALUE;
        constants = false;
      } else if (factor.terms().isEmpty()) {
        largest = factor.constant();
      } else {
        constants = false;
        largest = facts.largest(linear(factor));
      }
      largest = Math.max(0, largest);
      product =
          largest != 0 && product > bound.limit() / largest ? bound.limit() + 1 : product * largest;
    }
    return product <= bound.limit() ? Boolean.TRUE : constants ? Boolean.FALSE : null;
  }

  /** A factor of int scalars ({@link #factor}) as a linear form. */
  private static Linear linear(LaunchForm factor) {
    Linear value = Linear.constant(factor.constant());
    for (Map.Entry<String, Long> term : factor.terms().entrySet()) {
      value =
          value.plus(
              Linear.term(new IndexForm.Scalar(term.getKey().substring(2))).times(term.getValue()));
    }
    return value;
  }

  /**
   * How many values an id takes: its workgroup's size for a local id, the grid in whole workgroups
   * for a global one.
   */
  private static LaunchForm extent(Id id, Workgroup workgroup, boolean global) {
    return global ? LaunchForm.roundedGrid(0, id.axis()) : LaunchForm.of(workgroup.size(id.axis()));
  }

  /** One more than a bound the facts give a loop counter that is the same for all, or null. */
  private static LaunchForm counterExtent(Term counter, Constraints facts) {
    long largest = facts.largest(Linear.term(counter));
    if (largest < Integer.MAX_VALUE) {
      return LaunchForm.of(largest + 1);
    }
    for (Linear bound : facts.uniformUpperBounds(counter)) {
      LaunchForm factor = factor(bound.plus(Linear.constant(1)));
      if (factor != null) {
        return factor;
      }
    }
    return null;
  }

  /** A form of int scalars and a constant as a launch's factor; null for one of other terms. */
  private static LaunchForm factor(Linear form) {
    Map<String, Long> scalars = new java.util.TreeMap<>();
    for (Map.Entry<Term, Long> entry : form.coefficients().entrySet()) {
      if (!(entry.getKey() instanceof IndexForm.Scalar scalar)) {
        return null;
      }
      scalars.put(scalar.name(), entry.getValue());
    }
    return LaunchForm.ofScalars(form.constant(), scalars);
  }

  /** {@code form} with each global id written as {@code size·workgroupId + localId}. */
  private static Affine splitGlobalIds(Affine form, Workgroup workgroup) {
    IndexForm split =
        IndexForm.substitute(
            form,
            term ->
                term instanceof Id id && id.builtin() == Builtin.GLOBAL_ID
                    ? IndexForm.add(
                        IndexForm.scale(
                            IndexForm.term(new Id(Builtin.WORKGROUP_ID, id.axis())),
                            workgroup.size(id.axis())),
                        IndexForm.term(new Id(Builtin.LOCAL_ID, id.axis())))
                    : null);
    return split instanceof Affine affine ? affine : form;
  }
}
