package dev.kiln.abi;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * {@code constant + Σ k·term} in exact arithmetic over the values of a launch: the one form the
 * conditions a kernel hands its launches are written in ({@link LaunchBound}, {@link LaunchProof}).
 * Each term is the int value of
 *
 * <ul>
 *   <li>{@code s:P}, an int scalar parameter; {@code n:P}, a buffer parameter's length; {@code P}
 *       is the parameter's index in a {@link KernelDescription} and its name while the processor
 *       works ({@link #numbered});
 *   <li>{@code c1.0}, arm 1's grid along axis 0 as the launch gives it; {@code r1.0}, the same
 *       rounded up to whole workgroups; {@code d0}, the workgroups the launch dispatches along axis
 *       0 ({@code Gpu.numWorkgroups(0)});
 *   <li>{@code g0}, {@code l0}, {@code w0} (axes 0 to 2), a global, local or workgroup id, and
 *       {@code v7}, a local variable where it is read: values of an invocation, not of the launch;
 *   <li>{@code a*b}, the int product of two of the above.
 * </ul>
 *
 * @param constant the constant
 * @param terms each term's coefficient, none 0, in term order
 */
public record LaunchForm(long constant, Map<String, Long> terms) {
  /** What {@link #number} answers for a term an invocation gives (an id or a variable). */
  static final long INVOCATION_VALUE = Long.MIN_VALUE + 1;

  private static final String[] AXES = {"width", "height", "depth"};

  /** Drops zero coefficients and sorts the terms. */
  public LaunchForm {
    TreeMap<String, Long> kept = new TreeMap<>();
    terms.forEach(
        (term, k) -> {
          if (k != 0) {
            kept.put(Objects.requireNonNull(term), k);
          }
        });
    terms = Collections.unmodifiableSortedMap(kept);
  }

  /**
   * A constant.
   *
   * @param value the constant
   * @return the form
   */
  public static LaunchForm of(long value) {
    return new LaunchForm(value, Map.of());
  }

  /**
   * An arm's grid along an axis, rounded up to whole workgroups.
   *
   * @param arm the arm (0 for a kernel)
   * @param axis the axis
   * @return the form
   */
  public static LaunchForm roundedGrid(int arm, int axis) {
    return new LaunchForm(0, Map.of("r" + arm + "." + axis, 1L));
  }

  /**
   * {@code constant + Σ k·s} over int scalar parameters.
   *
   * @param constant the constant
   * @param scalars each scalar parameter's coefficient, by the parameter's name or index
   * @return the form
   */
  public static LaunchForm ofScalars(long constant, Map<String, Long> scalars) {
    Map<String, Long> terms = new TreeMap<>();
    scalars.forEach((name, k) -> terms.put("s:" + name, k));
    return new LaunchForm(constant, terms);
  }

  /**
   * This form with each parameter named by its index.
   *
   * @param index a parameter's index by its name
   * @return the form
   */
  public LaunchForm numbered(ToIntFunction<String> index) {
    Map<String, Long> numbered = new TreeMap<>();
    terms.forEach(
        (term, k) -> {
          StringBuilder renamed = new StringBuilder();
          for (String factor : term.split("\\*")) {
            renamed
                .append(renamed.isEmpty() ? "" : "*")
                .append(
                    isParameter(factor)
                        ? factor.substring(0, 2) + index.applyAsInt(factor.substring(2))
                        : factor);
          }
          numbered.merge(renamed.toString(), k, Math::addExact);
        });
    return new LaunchForm(constant, numbered);
  }

  /**
   * This form, where it was arm 0's (its kernel's own), for arm {@code arm} of a group.
   *
   * @param arm the arm
   * @return the form
   */
  public LaunchForm ofArm(int arm) {
    Map<String, Long> moved = new TreeMap<>();
    terms.forEach(
        (term, k) ->
            moved.put(
                term.startsWith("r0.") || term.startsWith("c0.")
                    ? term.charAt(0) + Integer.toString(arm) + term.substring(2)
                    : term,
                k));
    return new LaunchForm(constant, moved);
  }

  /**
   * The indices of the parameters the form reads, once {@link #numbered}.
   *
   * @return the indices
   */
  public Set<Integer> parameters() {
    Set<Integer> indices = new TreeSet<>();
    for (String term : terms.keySet()) {
      for (String factor : term.split("\\*")) {
        if (isParameter(factor)) {
          indices.add(Integer.parseInt(factor.substring(2)));
        }
      }
    }
    return indices;
  }

  /**
   * The form's value in a launch, where every term is a value of the launch (a bound's factors).
   *
   * @param launch what the launch gives
   * @return the value; {@link LaunchValues#UNKNOWN} where the launch cannot tell one
   * @throws IllegalStateException where a term is a value of an invocation
   */
  public long value(LaunchValues launch) {
    long value = constant;
    for (Map.Entry<String, Long> entry : terms.entrySet()) {
      long product = 1;
      for (String factor : entry.getKey().split("\\*")) {
        long number = number(factor, launch);
        if (number == LaunchValues.UNKNOWN) {
          return LaunchValues.UNKNOWN;
        }
        if (number == INVOCATION_VALUE) {
          throw new IllegalStateException("a value of an invocation in a launch's form: " + this);
        }
        product *= number; // ints: the product of two stays inside long
      }
      value = Math.addExact(value, Math.multiplyExact(entry.getValue(), product));
    }
    return value;
  }

  /**
   * A term's factor with the launch's number in: a scalar, a length, a grid or the workgroups;
   * {@link #INVOCATION_VALUE} for an id or a variable; {@link LaunchValues#UNKNOWN} for what the
   * launch cannot tell.
   */
  static long number(String factor, LaunchValues launch) {
    if (isParameter(factor)) {
      int param = Integer.parseInt(factor.substring(2));
      return factor.charAt(0) == 's' ? launch.scalar(param) : launch.length(param);
    }
    int dot = factor.indexOf('.');
    if ((factor.charAt(0) == 'c' || factor.charAt(0) == 'r')
        && dot > 1
        && digits(factor, 1, dot)
        && digits(factor, dot + 1, factor.length())) {
      int arm = Integer.parseInt(factor, 1, dot, 10);
      int axis = Integer.parseInt(factor, dot + 1, factor.length(), 10);
      return factor.charAt(0) == 'c' ? launch.grid(arm, axis) : launch.roundedGrid(arm, axis);
    }
    if (factor.charAt(0) == 'd' && digits(factor, 1, factor.length())) {
      int axis = Integer.parseInt(factor, 1, factor.length(), 10);
      return launch.dispatchedIds(axis) / launch.workgroupSize(axis); // the workgroups
    }
    return "glwv".indexOf(factor.charAt(0)) >= 0 && digits(factor, 1, factor.length())
        ? INVOCATION_VALUE
        : LaunchValues.UNKNOWN;
  }

  private static boolean isParameter(String factor) {
    return factor.length() > 2 && (factor.startsWith("s:") || factor.startsWith("n:"));
  }

  /** Whether {@code text} has only digits from {@code from} to {@code to}, and at least one. */
  private static boolean digits(String text, int from, int to) {
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * How the form reads in a message: {@code (2·columns + grid width - 1)}, parameters by name.
   *
   * @param name a parameter's name by its index
   * @return the text
   */
  public String text(IntFunction<String> name) {
    StringBuilder text = new StringBuilder();
    int count = 0;
    for (Map.Entry<String, Long> entry : terms.entrySet()) {
      StringBuilder factors = new StringBuilder();
      for (String factor : entry.getKey().split("\\*")) {
        factors.append(factors.isEmpty() ? "" : "·").append(readable(factor, name));
      }
      long k = entry.getValue();
      text.append(count++ == 0 ? (k < 0 ? "-" : "") : k < 0 ? " - " : " + ")
          .append(Math.abs(k) == 1 ? "" : Math.abs(k) + "·")
          .append(factors);
    }
    if (constant != 0 || count == 0) {
      text.append(
          count == 0
              ? Long.toString(constant)
              : (constant < 0 ? " - " : " + ") + Math.abs(constant));
      count++;
    }
    return count == 1 ? text.toString() : "(" + text + ")";
  }

  /**
   * The form as terms: {@code 0+1*g0+4*s:2}, the constant first, then each coefficient and term.
   *
   * @return the text
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder().append(constant);
    terms.forEach((term, k) -> text.append('+').append(k).append('*').append(term));
    return text.toString();
  }

  private static String readable(String factor, IntFunction<String> name) {
    if (isParameter(factor)) {
      String param = name.apply(Integer.parseInt(factor.substring(2)));
      return factor.charAt(0) == 's' ? param : param + ".length";
    }
    int dot = factor.indexOf('.');
    if ((factor.charAt(0) == 'c' || factor.charAt(0) == 'r') && dot > 1) {
      String arm = factor.substring(1, dot);
      return (arm.equals("0") ? "" : "arm " + arm + "'s ")
          + "grid "
          + AXES[Integer.parseInt(factor.substring(dot + 1))];
    }
    if (factor.charAt(0) == 'd' && digits(factor, 1, factor.length())) {
      return "workgroups along the " + AXES[Integer.parseInt(factor.substring(1))];
    }
    return factor;
  }
}
