package dev.kiln.abi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A condition on a launch that a proof of the processor needs and cannot check at compile time: the
 * product of some factors, each at least 0, is at most {@code limit}. {@code c[row * columns + col]}
 * under {@code col < columns} is each invocation's own element only where the mathematical values
 * {@code row * columns + col} do not wrap around the int range, which holds where
 * {@code columns × height ≤ 2^31}. A module carries its bounds ({@link #encode}); the runtime
 * refuses a launch that breaks one, before it runs, with {@code reason} in the message.
 *
 * @param limit the largest product allowed
 * @param factors the factors, each taken as 0 where negative (a negative stride or count means that
 *     no invocation reaches the access the proof is about)
 * @param reason what the proof is, for the launch's exception: the access and its source line
 */
public record LaunchBound(long limit, List<Factor> factors, String reason) {
  /** What a launch gives a bound's factors. */
  public interface Values {
    /**
     * The value of an int scalar parameter.
     *
     * @param name the parameter's name
     * @return its value in this launch
     */
    long scalar(String name);

    /**
     * An arm's grid along an axis, rounded up to whole workgroups.
     *
     * @param arm the arm (0 for a kernel)
     * @param axis the axis
     * @return the size
     */
    long roundedGrid(int arm, int axis);
  }

  /** The text of the {@code OpModuleProcessed} that carries a bound, followed by {@link #encode()}. */
  public static final String PROCESSED = "kiln.launchBound ";

  /**
   * An int scalar parameter's term of a factor.
   *
   * @param name the parameter's name
   * @param coefficient what it is multiplied by
   */
  public record Term(String name, long coefficient) {
    /** Checks the name. */
    public Term {
      Objects.requireNonNull(name);
    }
  }

  /**
   * {@code constant + Σ coefficient·scalar} over {@code scalars}, plus the grid of arm
   * {@code gridArm} along {@code gridAxis} rounded up to whole workgroups where {@code gridAxis ≥ 0}:
   * every int scalar parameter named is read at the launch.
   *
   * @param constant the constant part
   * @param scalars the int scalar parameters' terms, in name order
   * @param gridArm the arm whose grid is added (0 for a kernel)
   * @param gridAxis the grid's axis, or -1 for none
   */
  public record Factor(long constant, List<Term> scalars, int gridArm, int gridAxis) {
    /** Copies {@code scalars} in name order. */
    public Factor {
      scalars = scalars.stream().sorted(java.util.Comparator.comparing(Term::name)).toList();
      if (gridAxis < -1 || gridAxis > 2 || gridArm < 0) {
        throw new IllegalArgumentException("grid arm " + gridArm + ", axis " + gridAxis);
      }
    }

    /**
     * A constant factor.
     *
     * @param value the constant
     * @return the factor
     */
    public static Factor of(long value) {
      return new Factor(value, List.of(), 0, -1);
    }

    /**
     * The grid of an arm along an axis, in whole workgroups.
     *
     * @param arm the arm (0 for a kernel)
     * @param axis the axis
     * @return the factor
     */
    public static Factor grid(int arm, int axis) {
      return new Factor(0, List.of(), arm, axis);
    }

    /**
     * This factor for arm {@code arm} of a group, where it was arm 0's, its kernel's own.
     *
     * @param arm the arm
     * @return the factor
     */
    public Factor ofArm(int arm) {
      return gridAxis < 0 ? this : new Factor(constant, scalars, arm, gridAxis);
    }

    /**
     * The factor's value in a launch.
     *
     * @param launch what the launch gives
     * @return the value
     */
    public long value(Values launch) {
      long value = constant;
      for (int i = 0; i < scalars.size(); i++) { // no iterator: launches check bounds
        value += scalars.get(i).coefficient() * launch.scalar(scalars.get(i).name()); // |k·int| stays inside long
      }
      return gridAxis < 0 ? value : value + launch.roundedGrid(gridArm, gridAxis);
    }

    private String encode() {
      StringBuilder text = new StringBuilder().append(constant);
      scalars.forEach(term -> text.append('+').append(term.coefficient()).append('*').append(term.name()));
      if (gridAxis >= 0) {
        text.append("+grid").append(gridArm).append('.').append(gridAxis);
      }
      return text.toString();
    }

    private static Factor decode(String text) {
      String[] terms = text.split("\\+");
      long constant = Long.parseLong(terms[0]);
      List<Term> scalars = new ArrayList<>();
      int arm = 0;
      int axis = -1;
      for (int i = 1; i < terms.length; i++) {
        if (terms[i].startsWith("grid")) {
          String[] at = terms[i].substring(4).split("\\.");
          arm = Integer.parseInt(at[0]);
          axis = Integer.parseInt(at[1]);
        } else {
          int star = terms[i].indexOf('*');
          scalars.add(new Term(terms[i].substring(star + 1), Long.parseLong(terms[i].substring(0, star))));
        }
      }
      return new Factor(constant, scalars, arm, axis);
    }
  }

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
    return new LaunchBound(limit, factors.stream().map(factor -> factor.ofArm(arm)).toList(), reason);
  }

  /**
   * Whether a launch keeps the bound.
   *
   * @param launch what the launch gives
   * @return whether the product of the factors is at most the limit
   */
  public boolean holds(Values launch) {
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
   * The text a module carries after {@link #PROCESSED}: the limit, the factors, then the reason.
   *
   * @return the text
   */
  public String encode() {
    List<String> parts = new ArrayList<>();
    parts.add(Long.toString(limit));
    factors.forEach(factor -> parts.add(factor.encode()));
    return String.join(" ", parts) + " | " + reason;
  }

  /**
   * The bound that {@link #encode()} wrote.
   *
   * @param text the text after {@link #PROCESSED}
   * @return the bound
   */
  public static LaunchBound decode(String text) {
    int bar = text.indexOf(" | ");
    String[] parts = text.substring(0, bar).split(" ");
    List<Factor> factors = new ArrayList<>();
    for (int i = 1; i < parts.length; i++) {
      factors.add(Factor.decode(parts[i]));
    }
    return new LaunchBound(Long.parseLong(parts[0]), factors, text.substring(bar + 3));
  }

  /**
   * How the bound reads in a message: {@code columns × grid height ≤ 2147483648}.
   *
   * @return the text
   */
  public String condition() {
    if (limit == 0 && factors.size() == 1 && factors.getFirst().gridAxis() < 0) { // -f ≤ 0: f ≥ 0
      Factor negated = factors.getFirst();
      Factor form = new Factor(-negated.constant(), negated.scalars().stream()
          .map(term -> new Term(term.name(), -term.coefficient())).toList(), 0, -1);
      return terms(form) + " ≥ 0";
    }
    List<String> parts = new ArrayList<>();
    for (Factor factor : factors) {
      parts.add(terms(factor));
    }
    return String.join(" × ", parts) + " ≤ " + limit;
  }

  private static String terms(Factor factor) {
    List<String> terms = new ArrayList<>();
    factor.scalars().forEach(term -> terms.add(term.coefficient() == 1 ? term.name()
        : term.coefficient() + "·" + term.name()));
    if (factor.gridAxis() >= 0) {
      terms.add((factor.gridArm() == 0 ? "" : "arm " + factor.gridArm() + "'s ") + "grid "
          + new String[] {"width", "height", "depth"}[factor.gridAxis()]);
    }
    if (factor.constant() != 0 || terms.isEmpty()) {
      terms.add(Long.toString(factor.constant()));
    }
    return terms.size() == 1 ? terms.getFirst() : "(" + String.join(" + ", terms) + ")";
  }
}
