package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.analysis.IndexForm.Id;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Workgroup;
import java.util.Map;

/**
 * Decides what orders two accesses of one buffer made by different invocations of one fused
 * dispatch, from their index forms. The forms are first put in the fused dispatch's frame: {@code
 * globalId(0) = W·workgroupId(0) + localId(0)} for the fused workgroup's width W, and, in a
 * one-dimensional launch, every id along y and z is 0.
 */
public final class Conflicts {
  /** What makes two accesses safe, from best to none. */
  public enum Ordering {
    /** The indices never meet. */
    DISJOINT,
    /** They meet only within one invocation, where program order orders them. */
    SAME_LANE,
    /** They meet only within one workgroup: a workgroup barrier orders them. */
    WORKGROUP,
    /** Nothing inside one dispatch orders them. */
    NONE
  }

  private static final Id GLOBAL_X = new Id(Builtin.GLOBAL_ID, 0);
  private static final Id LOCAL_X = new Id(Builtin.LOCAL_ID, 0);
  private static final Id GROUP_X = new Id(Builtin.WORKGROUP_ID, 0);

  private final Workgroup fused;
  private final boolean oneDimensional;

  /**
   * @param fused the fused program's workgroup
   * @param oneDimensional whether every launch of the group has a grid of height and depth 1
   */
  public Conflicts(Workgroup fused, boolean oneDimensional) {
    this.fused = fused;
    this.oneDimensional = oneDimensional;
  }

  /**
   * Whether an arm of workgroup {@code arm} runs in the fused dispatch with its own workgroup, in a
   * one-dimensional launch of one-dimensional workgroups: its workgroup ids and local ids are then
   * its own, and so is what its analyses proved of them.
   *
   * @param arm the arm's workgroup
   * @return whether it does
   */
  public boolean runsWithItsOwnWorkgroup(Workgroup arm) {
    return oneDimensional && fused.y() == 1 && fused.z() == 1 && arm.equals(fused);
  }

  /** {@code form} in the fused dispatch's frame. */
  public IndexForm canonical(IndexForm form) {
    IndexForm split = withGlobalIdSplit(form, fused.x());
    return !oneDimensional
        ? split
        : IndexForm.substitute(
            split, term -> term instanceof Id id && id.axis() > 0 ? IndexForm.constant(0) : null);
  }

  /**
   * {@code form} with {@code globalId(0)} written as {@code width·workgroupId(0) + localId(0)}, for
   * workgroups {@code width} wide.
   *
   * @param form the form
   * @param width the workgroup's size along x
   * @return the form in workgroup and local ids
   */
  static IndexForm withGlobalIdSplit(IndexForm form, int width) {
    return IndexForm.substitute(
        form,
        term ->
            term.equals(GLOBAL_X)
                ? IndexForm.add(
                    IndexForm.scale(IndexForm.term(GROUP_X), width), IndexForm.term(LOCAL_X))
                : null);
  }

  /** What orders an access at {@code a} against one at {@code b}, one of them a write. */
  public Ordering order(IndexForm a, IndexForm b) {
    IndexForm x = canonical(a);
    IndexForm y = canonical(b);
    if (!(x instanceof Affine first) || !(y instanceof Affine second)) {
      return Ordering.NONE;
    }
    if (first.isUniform()
        && second.isUniform()
        && first.coefficients().equals(second.coefficients())
        && first.constant() != second.constant()) {
      return Ordering.DISJOINT;
    }
    if (first.equals(second) && injective(first)) {
      return Ordering.SAME_LANE;
    }
    if (insideOwnWorkgroup(first) && insideOwnWorkgroup(second)) {
      return Ordering.WORKGROUP;
    }
    return Ordering.NONE;
  }

  /**
   * Whether distinct invocations always get distinct values: the form is {@code k·globalId(0) + u}
   * with u the same for all invocations, in a one-dimensional launch, and {@code p -> k·p} is
   * one-to-one on {@code [0, 2^31)} in 32-bit arithmetic (k is odd or twice an odd number).
   */
  private boolean injective(Affine form) {
    if (!oneDimensional) {
      return false;
    }
    int k = form.coefficient(LOCAL_X);
    boolean onlyTheLane =
        form.coefficients().entrySet().stream()
            .allMatch(
                e ->
                    e.getKey().equals(LOCAL_X)
                        || e.getKey().equals(GROUP_X)
                        || e.getKey().isUniform());
    return onlyTheLane
        && k != 0
        && form.coefficient(GROUP_X) == k * fused.x()
        && Integer.numberOfTrailingZeros(k) <= 1;
  }

  /**
   * Whether the form is {@code W·workgroupId(0) + a·localId(0) + c} with every value of {@code
   * a·localId(0) + c} inside {@code [0, W)}: an element of the invocation's own workgroup's range,
   * in a one-dimensional launch of a one-dimensional workgroup.
   */
  private boolean insideOwnWorkgroup(Affine form) {
    if (!oneDimensional || fused.y() != 1 || fused.z() != 1) {
      return false;
    }
    for (Map.Entry<IndexForm.Term, Integer> entry : form.coefficients().entrySet()) {
      if (!entry.getKey().equals(LOCAL_X) && !entry.getKey().equals(GROUP_X)) {
        return false;
      }
    }
    if (form.coefficient(GROUP_X) != fused.x()) {
      return false;
    }
    long last = (long) form.coefficient(LOCAL_X) * (fused.x() - 1);
    long low = form.constant() + Math.min(0, last);
    long high = form.constant() + Math.max(0, last);
    return low >= 0 && high < fused.x();
  }
}
