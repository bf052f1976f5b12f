package dev.kiln.abi;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * A condition on a launch that a proof of the processor needs and cannot check at compile time: the
 * product of some factors, each at least 0, is at most {@code limit}. {@code c[row * columns +
 * col]} under {@code col < columns} is each invocation's own element only where the mathematical
 * values {@code row * columns + col} do not wrap around the int range, which holds where {@code
 * columns × height ≤ 2^31}. A kernel's {@link KernelDescription} carries its bounds; the runtime
 * refuses a launch that breaks one, before it runs, with {@code reason} in the message.
 *
 * @param limit the largest product allowed
 * @param factors the factors, forms of int scalars and rounded grids ({@link LaunchForm}), each
 *     taken as 0 where negative (a negative stride or count means that no invocation reaches the
 *     access the proof is about)
 * @param reason what the proof is, for the launch's exception: the access and its source line
 */
public record LaunchBound(long limit, List<LaunchForm> factors, String reason) {
  /** Copies the factors. */
  public LaunchBound {
    factors = List.copyOf(factors);
    Objects.requireNonNull(reason);
    if (limit < 0 || factors.isEmpty()) {
      throw new IllegalArgumentException("a bound needs factors and a limit of at least 0");
    }
  }

  /**
   * This bound for arm {@code arm} of a group, where it was a kernel's.
   *
   * @param arm the arm
   * @return the bound
   */
  public LaunchBound ofArm(int arm) {
    return new LaunchBound(
        limit, factors.stream().map(factor -> factor.ofArm(arm)).toList(), reason);
  }

  /**
   * This bound with each parameter named by its index ({@link LaunchForm#numbered}).
   *
   * @param index a parameter's index by its name
   * @return the bound
   */
  public LaunchBound numbered(ToIntFunction<String> index) {
    return new LaunchBound(
        limit, factors.stream().map(factor -> factor.numbered(index)).toList(), reason);
  }

  /**
   * Whether a launch keeps the bound.
   *
   * @param launch what the launch gives
   * @return whether the product of the factors is at most the limit
   */
  public boolean holds(LaunchValues launch) {
    long product = 1;
    for (int i = 0; i < factors.size(); i++) { // no iterator: launches check bounds
      long value = Math.max(0, factors.get(i).value(launch));
      if (value == 0) {
        return true;
      }
      product = value > limit / product ? limit + 1 : product * value; // saturates past the limit
    }
    return product <= limit;
  }

  /**
   * How the bound reads in a message: {@code columns × grid height ≤ 2147483648}.
   *
   * @param name a parameter's name by its index
   * @return the text
   */
  public String condition(IntFunction<String> name) {
    LaunchForm only = factors.getFirst();
    if (limit == 0
        && factors.size() == 1
        && only.terms().keySet().stream().noneMatch(term -> term.startsWith("r"))) {
      Map<String, Long> negated = new TreeMap<>(); // -f ≤ 0: f ≥ 0
      only.terms().forEach((term, k) -> negated.put(term, -k));
      return new LaunchForm(-only.constant(), negated).text(name) + " ≥ 0";
    }
    List<String> parts = new ArrayList<>();
    for (LaunchForm factor : factors) {
      parts.add(factor.text(name));
    }
    return String.join(" × ", parts) + " ≤ " + limit;
  }
}
