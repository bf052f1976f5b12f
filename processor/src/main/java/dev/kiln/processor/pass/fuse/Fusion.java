package dev.kiln.processor.pass.fuse;

import dev.kiln.abi.LaunchBound;
import dev.kiln.annotations.Access;
import dev.kiln.processor.analysis.Conflicts;
import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.analysis.IndexForm;
import dev.kiln.processor.analysis.IndexForms;
import dev.kiln.processor.analysis.OwnElement;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fuses the arms of a group into one program that runs them one after the other in every
 * invocation, or says why that would not compute what the arms compute when dispatched one after
 * another. A pure function of the arms' programs, as lowered (before gating and other passes).
 *
 * <p>Buffers and scalars are shared by name; each arm keeps its own locals, labels, private and
 * workgroup arrays, runs only inside its own grid, and ends with its {@code return}. The fused
 * workgroup is the axis-wise maximum. For every buffer two arms share with a write in either, each
 * pair of accesses must be ordered: within one invocation (same lane), by a workgroup barrier
 * between the arms (both inside the invocation's own workgroup), or not at all, which is an error.
 */
public final class Fusion {
  /** The fused workgroup may have at most this many times the invocations of the largest arm's. */
  public static final int OVER_DISPATCH_LIMIT = 4;

  /** A fused program, or the reasons there is none. */
  public sealed interface Result {
    /** {@code barrierBefore.get(k)}: whether a workgroup barrier precedes arm k. */
    record Fused(Program program, List<Boolean> barrierBefore) implements Result {
      public Fused {
        barrierBefore = List.copyOf(barrierBefore);
      }
    }

    record Refused(List<FusionError> errors) implements Result {
      public Refused {
        errors = List.copyOf(errors);
      }
    }
  }

  private final String group;
  private final List<Arm> arms;
  private final List<Facts> facts = new ArrayList<>();
  private final List<FusionError> errors = new ArrayList<>();
  private final Map<String, BufferDecl> buffers = new LinkedHashMap<>();
  private final Map<String, ScalarParam> scalars = new LinkedHashMap<>();

  /**
   * What the launch must keep for the proofs that ordered the arms' accesses (the program keeps one
   * per condition).
   */
  private final List<LaunchBound> launchBounds = new ArrayList<>();

  /** Which arm first declared each name, for type conflicts. */
  private final Map<String, Integer> firstArm = new LinkedHashMap<>();

  private Fusion(String group, List<Arm> arms) {
    this.group = group;
    this.arms = List.copyOf(arms);
    for (Arm arm : arms) {
      facts.add(arm.analysis().facts());
    }
  }

  /** Fuses {@code arms}, in group order, into the program {@code group}. */
  public static Result fuse(String group, List<Arm> arms) {
    if (arms.isEmpty()) {
      throw new IllegalArgumentException("group '" + group + "' has no arms");
    }
    return new Fusion(group, arms).run();
  }

  private Result run() {
    for (int k = 0; k < arms.size(); k++) {
      if (facts.get(k).matrices()) {
        errors.add(new FusionError.Matrices(group, k, arms.get(k).kernel()));
      }
    }
    if (!errors.isEmpty()) {
      return new Result.Refused(errors);
    }
    checkSelfComposition();
    unifyDeclarations();
    Workgroup fused = fusedWorkgroup();
    checkGeometry(fused);
    List<Boolean> barrierBefore = orderHazards(fused);
    if (!errors.isEmpty()) {
      return new Result.Refused(realConflictsFirst(errors));
    }
    for (int k = 0; k < arms.size(); k++) {
      for (LaunchBound bound : arms.get(k).program().launchBounds()) {
        launchBounds.add(bound.ofArm(k));
      }
    }
    return new Result.Fused(
        ArmMerger.merge(
            group,
            fused,
            arms,
            facts,
            List.copyOf(buffers.values()),
            List.copyOf(scalars.values()),
            barrierBefore,
            launchBounds),
        barrierBefore);
  }

  private void checkSelfComposition() {
    for (int k = 0; k < arms.size(); k++) {
      Arm arm = arms.get(k);
      if (arm.selfComposable()) {
        continue;
      }
      for (int first = 0; first < k; first++) {
        if (arms.get(first).kernel().equals(arm.kernel())) {
          errors.add(new FusionError.SelfAliasing(group, arm.kernel(), first, k));
          break;
        }
      }
    }
  }

  /** Buffers and scalars by name, in first-seen order; access upgraded where arms differ. */
  private void unifyDeclarations() {
    for (int k = 0; k < arms.size(); k++) {
      Program program = arms.get(k).program();
      for (BufferDecl buffer : program.buffers()) {
        if (agrees(k, buffer.name(), buffer.element().javaName() + "[]")) {
          buffers.merge(
              buffer.name(),
              new BufferDecl(buffer.name(), buffer.element(), buffer.access(), buffers.size()),
              (earlier, later) ->
                  earlier.access() == later.access()
                      ? earlier
                      : new BufferDecl(
                          earlier.name(), earlier.element(), Access.READ_WRITE, earlier.binding()));
        }
      }
      for (ScalarParam scalar : program.scalars()) {
        if (agrees(k, scalar.name(), scalar.type().javaName())) {
          scalars.putIfAbsent(scalar.name(), scalar);
        }
      }
    }
  }

  /**
   * Whether {@code name} has type {@code type} wherever an earlier arm declared it; reports it if
   * not.
   */
  private boolean agrees(int arm, String name, String type) {
    Integer first = firstArm.putIfAbsent(name, arm);
    if (first == null) {
      return true;
    }
    String firstType = typeOf(arms.get(first).program(), name);
    if (firstType.equals(type)) {
      return true;
    }
    errors.add(
        new FusionError.TypeConflict(
            group,
            name,
            first,
            arms.get(first).kernel(),
            firstType,
            arm,
            arms.get(arm).kernel(),
            type));
    return false;
  }

  private static String typeOf(Program program, String name) {
    for (BufferDecl buffer : program.buffers()) {
      if (buffer.name().equals(name)) {
        return buffer.element().javaName() + "[]";
      }
    }
    return program.scalars().stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .orElseThrow()
        .type()
        .javaName();
  }

  private Workgroup fusedWorkgroup() {
    return arms.stream().map(arm -> arm.program().workgroup()).reduce(Workgroup::max).orElseThrow();
  }

  private void checkGeometry(Workgroup fused) {
    int largest = 0;
    for (int k = 1; k < arms.size(); k++) {
      if (workgroupOf(k).invocations() > workgroupOf(largest).invocations()) {
        largest = k;
      }
    }
    long limit = OVER_DISPATCH_LIMIT * workgroupOf(largest).invocations();
    if (fused.invocations() > limit) {
      int widest = widest(largest);
      errors.add(
          new FusionError.OverDispatch(
              group,
              widest,
              arms.get(widest).kernel(),
              fused,
              fused.invocations(),
              largest,
              arms.get(largest).kernel(),
              workgroupOf(largest).invocations()));
    }
    for (int k = 0; k < arms.size(); k++) {
      String reason = facts.get(k).workgroupDependence();
      if (reason != null && !workgroupOf(k).equals(fused)) {
        errors.add(
            new FusionError.WorkgroupGeometry(
                group, k, arms.get(k).kernel(), workgroupOf(k), fused, reason));
      }
    }
  }

  /**
   * The first arm, other than {@code largest}, whose workgroup reaches past the largest arm's along
   * some axis: the one that widens the fused workgroup (the largest itself if none does).
   */
  private int widest(int largest) {
    Workgroup big = workgroupOf(largest);
    for (int k = 0; k < arms.size(); k++) {
      Workgroup own = workgroupOf(k);
      if (k != largest && (own.x() > big.x() || own.y() > big.y() || own.z() > big.z())) {
        return k;
      }
    }
    return largest;
  }

  private Workgroup workgroupOf(int arm) {
    return arms.get(arm).program().workgroup();
  }

  /**
   * The errors to report: where some pair of accesses provably reaches other invocations' elements,
   * not also the pairs Kiln merely cannot analyze (often the same element in both arms, at an index
   * the analysis does not follow), which would bury the real conflict. The group is refused either
   * way; once the real conflicts are fixed, a build reports the others.
   */
  private static List<FusionError> realConflictsFirst(List<FusionError> errors) {
    boolean real =
        errors.stream()
            .anyMatch(
                error -> error instanceof FusionError.Aliasing aliasing && aliasing.analyzable());
    return real
        ? errors.stream()
            .filter(
                error -> !(error instanceof FusionError.Aliasing aliasing) || aliasing.analyzable())
            .toList()
        : errors;
  }

  /**
   * Checks every pair of arms on every buffer both access with a write in either, and returns where
   * workgroup barriers go: before an arm, where an earlier arm's accesses need one and no barrier
   * stands between them yet.
   */
  private List<Boolean> orderHazards(Workgroup fused) {
    boolean oneDimensional =
        arms.stream()
            .allMatch(
                arm -> arm.program().workgroup().y() == 1 && arm.program().workgroup().z() == 1);
    Conflicts conflicts = new Conflicts(fused, oneDimensional);
    List<IndexForms> forms = arms.stream().map(arm -> arm.analysis().forms()).toList();
    List<Boolean> barrierBefore = new ArrayList<>();
    int lastBarrier = -1; // the arm a barrier precedes
    for (int later = 0; later < arms.size(); later++) {
      boolean needed = false;
      for (int earlier = 0; earlier < later; earlier++) {
        for (String buffer : buffers.keySet()) {
          Conflicts.Ordering ordering = order(conflicts, forms, buffer, earlier, later);
          needed |= ordering == Conflicts.Ordering.WORKGROUP && lastBarrier <= earlier;
        }
      }
      if (needed) {
        lastBarrier = later;
      }
      barrierBefore.add(needed);
    }
    return barrierBefore;
  }

  /**
   * Whether arm {@code arm}'s access stays inside the invocation's own workgroup's range of the
   * buffer, as the arm's bounds analysis proves it where its index form alone does not: it runs
   * with its own workgroup in the fused dispatch, which is one-dimensional.
   */
  private boolean insideOwnWorkgroup(Conflicts conflicts, int arm, Facts.Access access) {
    return conflicts.runsWithItsOwnWorkgroup(arms.get(arm).program().workgroup())
        && arms.get(arm).analysis().bounds().insideOwnWorkgroup(access.index());
  }

  /**
   * Whether both accesses are proven each invocation's own element in a way that makes them meet
   * only within one invocation ({@link OwnElement#sameLane}); the bounds the proofs need join the
   * group's, each for its arm's grid.
   */
  private boolean sameLane(
      String buffer, int earlier, Facts.Access first, int later, Facts.Access second) {
    OwnElement a = arms.get(earlier).analysis().bounds().ownElement(first.index());
    OwnElement b = arms.get(later).analysis().bounds().ownElement(second.index());
    if (a == null || b == null || !a.sameLane(b)) {
      return false;
    }
    String reason =
        buffer
            + "'s elements on lines "
            + first.site().line()
            + " and "
            + second.site().line()
            + " (and any others of the same bound) are each invocation's own, so that group "
            + group
            + " fuses";
    a.bounds(reason).forEach(bound -> launchBounds.add(bound.ofArm(earlier)));
    b.bounds(reason).forEach(bound -> launchBounds.add(bound.ofArm(later)));
    return true;
  }

  /**
   * Whether the form is affine in the ids alone, beside terms the same for all: one whose conflicts
   * the analysis decides, not one with products or locals it merely could not prove.
   */
  private static boolean linearInIds(IndexForm form) {
    return form instanceof IndexForm.Affine affine
        && affine.coefficients().keySet().stream()
            .allMatch(term -> term.isUniform() || term instanceof IndexForm.Id);
  }

  /**
   * The weakest ordering any conflicting pair of accesses of {@code buffer} needs; reports the
   * first unordered one.
   */
  private Conflicts.Ordering order(
      Conflicts conflicts, List<IndexForms> forms, String buffer, int earlier, int later) {
    Conflicts.Ordering needed = Conflicts.Ordering.DISJOINT;
    for (Facts.Access first : facts.get(earlier).accessesOf(buffer)) {
      for (Facts.Access second : facts.get(later).accessesOf(buffer)) {
        if (!first.kind().writes() && !second.kind().writes()) {
          continue;
        }
        IndexForm a = forms.get(earlier).form(first.index());
        IndexForm b = forms.get(later).form(second.index());
        // a copy's range may meet any element: no proof follows it, so with a write it conflicts
        boolean ranges = first.range() || second.range();
        Conflicts.Ordering ordering = ranges ? Conflicts.Ordering.NONE : conflicts.order(a, b);
        if (ordering == Conflicts.Ordering.NONE
            && !ranges
            && insideOwnWorkgroup(conflicts, earlier, first)
            && insideOwnWorkgroup(conflicts, later, second)) {
          ordering =
              Conflicts.Ordering
                  .WORKGROUP; // a tile read with a loop counter, say: the bounds analysis's proof
        }
        if (ordering == Conflicts.Ordering.NONE
            && !ranges
            && sameLane(buffer, earlier, first, later, second)) {
          ordering = Conflicts.Ordering.SAME_LANE; // row * cols + col under col < cols, say
        }
        if (ordering == Conflicts.Ordering.NONE) {
          boolean analyzable = !ranges && linearInIds(a) && linearInIds(b);
          errors.add(
              new FusionError.Aliasing(
                  group,
                  buffer,
                  new FusionError.ArmAccess(
                      earlier,
                      arms.get(earlier).kernel(),
                      first.kind(),
                      first.site(),
                      first.range()),
                  new FusionError.ArmAccess(
                      later,
                      arms.get(later).kernel(),
                      second.kind(),
                      second.site(),
                      second.range()),
                  analyzable));
          return ordering;
        }
        if (ordering.compareTo(needed) > 0) {
          needed = ordering;
        }
      }
    }
    return needed;
  }
}
