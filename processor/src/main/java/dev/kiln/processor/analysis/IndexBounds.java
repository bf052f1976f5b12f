package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchProof;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Workgroup;
import java.util.List;

/**
 * The array accesses of a program that are in bounds for every invocation, whose checks can go. It
 * walks the body in order, carrying what is known there ({@link Constraints}): the launch's ranges
 * of ids and lengths, the conditions of the {@code if}s, {@code ?:}s and {@code &&}s that lead to
 * the access (and of an {@code if} whose branch returns, breaks or continues, for what follows it),
 * and the range of a loop counter ({@code for (s = 128; s > 0; s >>= 1)} keeps {@code s} within
 * 1..128 in the body). A local assigned more than once is a variable whose facts are forgotten
 * where it may change: at its assignments, and on entry to a loop or switch that assigns it. An
 * access is proven when its index, as an affine form ({@link IndexForms}), is at least 0 and at
 * most the array's length less one ({@code buffer.length - 1} for a buffer), or is masked by a
 * non-negative constant below a fixed array's length ({@code counts[v & 255]}). A guard {@code x !=
 * e} trims an end of the range of {@code x} that the facts put on {@code e}. A buffer access it
 * cannot prove gets a {@link LaunchProof} where its index is affine: the facts there and the bounds
 * still to prove, which the runtime evaluates with each launch's lengths, scalars and grid ({@link
 * Bound#AT_LAUNCH}). {@link IndexWalk} walks the body; {@link AccessRecord} holds what it found,
 * which this class answers from.
 */
public final class IndexBounds {
  private final Workgroup workgroup;
  private final AccessRecord record;

  private IndexBounds(Workgroup workgroup, AccessRecord record) {
    this.workgroup = workgroup;
    this.record = record;
  }

  /**
   * The bounds of {@code program}'s accesses.
   *
   * @param program the program
   * @param forms its index forms
   * @return what is proven
   */
  public static IndexBounds of(Program program, IndexForms forms, Multiples multiples) {
    AccessRecord record = new AccessRecord();
    IndexWalk.walk(program, forms, multiples, record);
    return new IndexBounds(program.workgroup(), record);
  }

  /**
   * Whether every invocation that evaluates {@code index}, the index of one of the program's
   * accesses, gets a value inside its own workgroup's range: {@code [W·workgroupId(0),
   * W·workgroupId(0) + W)} for a one-dimensional workgroup of width W (a one-dimensional launch),
   * wherever it is evaluated. Fusion orders such accesses of two arms by a workgroup barrier:
   * {@code a[workgroupId(0) * 64 + k]} with {@code k} a loop counter in {@code [0, 64)} is one.
   *
   * @param index the index expression of an access, the node itself
   * @return whether it is proven
   */
  public boolean insideOwnWorkgroup(Expr index) {
    return record.insideOwnWorkgroup(index);
  }

  /**
   * The proof that {@code index}, the index of one of the program's accesses of a buffer or
   * workgroup array, is each invocation's own element wherever it is evaluated ({@link
   * OwnElement}), with the bounds of every place; null where some place has none.
   *
   * @param index the index expression of an access, the node itself
   * @return the proof, or null
   */
  public OwnElement ownElement(Expr index) {
    List<OwnElement> proofs = record.ownElements(index);
    if (proofs == null || proofs.contains(null)) {
      return null;
    }
    OwnElement first = proofs.getFirst();
    java.util.LinkedHashSet<dev.kiln.abi.LaunchBound> bounds = new java.util.LinkedHashSet<>();
    for (OwnElement proof : proofs) {
      if (!proof.withBounds(List.of()).equals(first.withBounds(List.of()))) {
        return null;
      }
      bounds.addAll(proof.bounds());
    }
    return first.withBounds(List.copyOf(bounds));
  }

  /**
   * The bounds a launch keeps for {@code index}, the index of one of the program's accesses of a
   * buffer or workgroup array, to be each invocation's own element wherever it is evaluated, by an
   * {@link OwnElement} proof or, for a buffer, a {@link MixedRadix} one (reasons empty); null where
   * some place has neither.
   *
   * @param index the index expression of an access, the node itself
   * @return the bounds, or null
   */
  public List<dev.kiln.abi.LaunchBound> ownElementBounds(Expr index) {
    List<List<dev.kiln.abi.LaunchBound>> places = record.ownBoundsOf(index);
    if (places == null || places.contains(null)) {
      return null;
    }
    return places.stream().flatMap(List::stream).distinct().toList();
  }

  /**
   * Whether accesses of one workgroup array at the index nodes {@code first} and {@code second}
   * (the same node or two), made by two different invocations of one workgroup at the same time,
   * may reach the same element ({@link WorkgroupMeeting}).
   *
   * @param first the index expression of one access, the node itself
   * @param second that of the other
   * @param stable the locals whose value is the same at both accesses, for each invocation
   * @param uniform the locals whose value is the same for every invocation of the workgroup
   * @return what is known
   */
  public WorkgroupMeeting.Outcome workgroupMeeting(
      Expr first,
      Expr second,
      java.util.function.Predicate<Local> stable,
      java.util.function.Predicate<Local> uniform) {
    List<WorkgroupMeeting.Place> firsts = record.workgroupPlaces(first);
    List<WorkgroupMeeting.Place> seconds = record.workgroupPlaces(second);
    WorkgroupMeeting meeting = new WorkgroupMeeting(workgroup, stable, uniform);
    OwnElement ownFirst = ownElement(first);
    OwnElement ownSecond = ownElement(second);
    WorkgroupMeeting.Outcome outcome = WorkgroupMeeting.Outcome.APART;
    for (WorkgroupMeeting.Place a : firsts) {
      for (WorkgroupMeeting.Place b : seconds) {
        WorkgroupMeeting.Outcome pair = meeting.meet(a, ownFirst, b, ownSecond);
        if (pair.compareTo(outcome) > 0) {
          outcome = pair;
        }
      }
    }
    return outcome;
  }

  /**
   * How many array accesses the program has, how many of them are proven in bounds, and how many
   * more a launch's values may prove ({@link Bound#AT_LAUNCH}).
   */
  public record Tally(int accesses, int proven, int atLaunch) {}

  /**
   * How many of the program's array accesses are proven in bounds, at compile time or at a launch.
   */
  public Tally tally() {
    int proven =
        (int) record.occurrences().stream().filter(counts -> counts[0] == counts[1]).count();
    int atLaunch =
        (int)
            record.unproven().stream().filter(access -> boundOf(access) == Bound.AT_LAUNCH).count();
    return new Tally(record.occurrences().size(), proven, atLaunch);
  }

  /** How an access's index is known to be in bounds. */
  public enum Bound {
    /** For every invocation of every launch: no check. */
    PROVEN,
    /**
     * Where the launch's values prove it ({@link #launchProofs()}): a check the runtime may leave
     * out.
     */
    AT_LAUNCH,
    /** Not known: a check. */
    CHECKED
  }

  /** How this load of the program is known to be in bounds. */
  public Bound bound(Expr.Load load) {
    return boundOf(load);
  }

  /** How this store of the program is known to be in bounds. */
  public Bound bound(Stmt.Store store) {
    return boundOf(store);
  }

  /** How this atomic update of the program is known to be in bounds. */
  public Bound bound(Stmt.Atomic atomic) {
    return boundOf(atomic);
  }

  /**
   * How both ends of one side of a copy ({@code target}: its destination) are known to be in
   * bounds, and so its whole range: the lesser of the two.
   */
  public Bound bound(Stmt.Copy copy, boolean target) {
    return boundOfBoth(record.copyEnds(copy, target));
  }

  /**
   * How a tile's whole extent is known to lie in its array: proven or settled at launch where its
   * stride is a constant and both ends are; else checked.
   */
  public Bound bound(Stmt.Matrix tile) {
    Expr[] ends = record.tileEnds(tile);
    return ends == null ? Bound.CHECKED : boundOfBoth(ends);
  }

  /** How a range is known in bounds from its two ends' accesses: the lesser of the two. */
  private Bound boundOfBoth(Expr[] ends) {
    Bound first = boundOf(ends[0]);
    Bound last = boundOf(ends[1]);
    return first.compareTo(last) >= 0 ? first : last;
  }

  private Bound boundOf(Object access) {
    if (record.isProven(access)) {
      return Bound.PROVEN;
    }
    List<LaunchProof> proofs = record.launchProofs(access);
    return proofs != null && !proofs.contains(null) ? Bound.AT_LAUNCH : Bound.CHECKED;
  }

  /**
   * The proofs of the accesses {@link Bound#AT_LAUNCH}, each once: where all hold at a launch, the
   * runtime leaves out those accesses' checks.
   *
   * @return the proofs, in program order
   */
  public List<LaunchProof> launchProofs() {
    java.util.LinkedHashSet<LaunchProof> all = new java.util.LinkedHashSet<>();
    for (Object access : record.unproven()) {
      if (boundOf(access) == Bound.AT_LAUNCH) {
        all.addAll(record.launchProofs(access));
      }
    }
    return List.copyOf(all);
  }
}
