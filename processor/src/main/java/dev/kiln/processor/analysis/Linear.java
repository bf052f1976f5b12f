package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Term;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code constant + Σ coefficients[term] · term} in exact arithmetic, unlike {@link IndexForm}'s
 * 32-bit one: what {@link Constraints} reasons with. Operations that leave the long range throw
 * {@link ArithmeticException}; no coefficient is 0.
 */
record Linear(Map<Term, Long> coefficients, long constant) {
  Linear {
    TreeMap<Term, Long> kept = new TreeMap<>();
    coefficients.forEach(
        (term, k) -> {
          if (k != 0) {
            kept.put(term, k);
          }
        });
    coefficients = Collections.unmodifiableSortedMap(kept);
  }

  static Linear constant(long value) {
    return new Linear(Map.of(), value);
  }

  static Linear term(Term term) {
    return new Linear(Map.of(term, 1L), 0);
  }

  /** The affine form read with its coefficients and constant as written, not modulo 2^32. */
  static Linear of(IndexForm.Affine affine) {
    Map<Term, Long> coefficients = new TreeMap<>();
    affine.coefficients().forEach((term, k) -> coefficients.put(term, (long) k));
    return new Linear(coefficients, affine.constant());
  }

  Linear plus(Linear other) {
    Map<Term, Long> sum = new TreeMap<>(coefficients);
    other.coefficients.forEach((term, k) -> sum.merge(term, k, Math::addExact));
    return new Linear(sum, Math.addExact(constant, other.constant));
  }

  Linear minus(Linear other) {
    return plus(other.times(-1));
  }

  Linear times(long k) {
    Map<Term, Long> product = new TreeMap<>();
    coefficients.forEach((term, c) -> product.put(term, Math.multiplyExact(c, k)));
    return new Linear(product, Math.multiplyExact(constant, k));
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    coefficients.forEach(
        (term, k) ->
            text.append(text.isEmpty() ? "" : " + ").append(k == 1 ? "" : k + "*").append(term));
    return text.append(text.isEmpty() ? "" : " + ").append(constant).toString();
  }
}
