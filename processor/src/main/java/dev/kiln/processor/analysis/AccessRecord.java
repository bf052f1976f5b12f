package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchAbi;
import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchProof;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link IndexWalk} found of each array access of a program, keyed by the IR node itself (an
 * access may occur more than once: an inlined helper, a loop's update): how often it occurs and how
 * often it is proven there, each occurrence's launch proof, own-element proof and workgroup place.
 * A tile or a copy is recorded as two accesses at its ends, index nodes made once per tile or copy.
 */
final class AccessRecord {
  /** Per access node: how often it occurs, and how often proven there. */
  private final Map<Object, int[]> occurrences = new IdentityHashMap<>();

  /**
   * Per access's index node: how often it occurs, and how often proven inside its own workgroup's
   * range.
   */
  private final Map<Object, int[]> ownWorkgroup = new IdentityHashMap<>();

  /** Per access's index node: the own-element proof of each occurrence (null where none). */
  private final Map<Object, List<OwnElement>> ownElements = new IdentityHashMap<>();

  private final Map<Object, List<List<LaunchBound>>> ownBounds = new IdentityHashMap<>();

  /** Per access's index node of a workgroup array: its form and the facts at each occurrence. */
  private final Map<Object, List<WorkgroupMeeting.Place>> workgroupPlaces = new IdentityHashMap<>();

  /** Per access node not proven: each occurrence's launch proof (null where none). */
  private final Map<Object, List<LaunchProof>> launchProofs = new IdentityHashMap<>();

  /**
   * The keys of {@link #launchProofs} in program order, so that modules are the same on every
   * build.
   */
  private final List<Object> unproven = new ArrayList<>();

  /** Per tile of a constant stride: the index nodes of its ends ({@link #tileEnds}). */
  private final Map<Stmt.Matrix, Expr[]> tileEnds = new IdentityHashMap<>();

  /** Per copy: the index nodes of its sides' ends ({@link #copyEnds}). */
  private final Map<Stmt.Copy, Expr[][]> copyEnds = new IdentityHashMap<>();

  /**
   * An occurrence of {@code access}: proven here, or not, with what would prove it at a launch
   * (null for nothing).
   */
  void access(Object access, boolean proven, LaunchProof atLaunch) {
    int[] counts = occurrences.computeIfAbsent(access, a -> new int[2]);
    counts[0]++;
    counts[1] += proven ? 1 : 0;
    if (!proven) {
      launchProofs
          .computeIfAbsent(
              access,
              a -> {
                unproven.add(a);
                return new ArrayList<>();
              })
          .add(atLaunch);
    }
  }

  /**
   * An occurrence of an access's {@code index}: whether inside its own workgroup's range, its
   * own-element proof (or null).
   */
  void ownership(
      Expr index, boolean insideOwnWorkgroup, OwnElement proof, List<LaunchBound> ownBounds) {
    int[] counts = ownWorkgroup.computeIfAbsent(index, a -> new int[2]);
    counts[0]++;
    counts[1] += insideOwnWorkgroup ? 1 : 0;
    ownElements.computeIfAbsent(index, a -> new ArrayList<>()).add(proof);
    ownBounds(index).add(ownBounds);
  }

  /**
   * An occurrence of a tile's or copy's {@code offset}: it spans many elements, no invocation's
   * own.
   */
  void notOwn(Expr offset) {
    ownElements.computeIfAbsent(offset, a -> new ArrayList<>()).add(null);
    ownBounds(offset).add(null);
  }

  private List<List<LaunchBound>> ownBounds(Expr index) {
    return ownBounds.computeIfAbsent(index, a -> new ArrayList<>());
  }

  /** An occurrence of an access of a workgroup array at {@code index}. */
  void workgroupPlace(Expr index, WorkgroupMeeting.Place place) {
    workgroupPlaces.computeIfAbsent(index, a -> new ArrayList<>()).add(place);
  }

  /** Whether every occurrence of {@code access} is proven. */
  boolean isProven(Object access) {
    int[] counts = occurrences.get(access);
    return counts != null && counts[0] == counts[1];
  }

  /** Whether every occurrence of {@code index} is inside its own workgroup's range. */
  boolean insideOwnWorkgroup(Expr index) {
    int[] counts = ownWorkgroup.get(index);
    return counts != null && counts[0] == counts[1];
  }

  /**
   * The own-element proofs of {@code index}'s occurrences (null where one has none); null where it
   * has none recorded.
   */
  List<OwnElement> ownElements(Expr index) {
    return ownElements.get(index);
  }

  /**
   * The bounds under which each occurrence of {@code index} is its invocation's own element, by an
   * {@link OwnElement} or a {@link MixedRadix} proof (null where one has neither); null where it
   * has none recorded.
   */
  List<List<LaunchBound>> ownBoundsOf(Expr index) {
    return ownBounds.get(index);
  }

  /** The workgroup places of {@code index}'s occurrences. */
  List<WorkgroupMeeting.Place> workgroupPlaces(Expr index) {
    return workgroupPlaces.getOrDefault(index, List.of());
  }

  /** The launch proofs of {@code access}'s occurrences; null where it is proven everywhere. */
  List<LaunchProof> launchProofs(Object access) {
    return launchProofs.get(access);
  }

  /** The accesses not proven everywhere, in program order. */
  List<Object> unproven() {
    return unproven;
  }

  /** The accesses' occurrence counts: how often each occurs, and how often proven. */
  java.util.Collection<int[]> occurrences() {
    return occurrences.values();
  }

  /**
   * The first and last index of a side of a copy ({@code target}: its destination), as index nodes
   * of their own (made once per copy, so that their identity keys the occurrences as an access node
   * does).
   */
  Expr[] copyEnds(Stmt.Copy copy, boolean target) {
    Expr[][] ends =
        copyEnds.computeIfAbsent(
            copy, c -> new Expr[][] {ends(c.sourceIndex(), c), ends(c.targetIndex(), c)});
    return ends[target ? 1 : 0];
  }

  private static Expr[] ends(Expr first, Stmt.Copy copy) {
    return new Expr[] {
      new Expr.Binary(BinaryOp.ADD, first, new Expr.IntConst(0), PrimType.INT, copy.site()),
      new Expr.Binary(
          BinaryOp.ADD, first, new Expr.IntConst(copy.length() - 1), PrimType.INT, copy.site())
    };
  }

  /**
   * The index nodes of the tile's ends, where {@link #tileEnds(Stmt.Matrix, Expr, Expr)} made them;
   * null else.
   */
  Expr[] tileEnds(Stmt.Matrix tile) {
    return tileEnds.get(tile);
  }

  /**
   * The lowest and highest index of a tile whose stride is a constant, as index nodes of their own
   * (made once per tile); null for a tile of a variable stride.
   */
  Expr[] tileEnds(Stmt.Matrix tile, Expr offset, Expr stride) {
    if (!(stride instanceof Expr.IntConst(int rows))) {
      return null;
    }
    return tileEnds.computeIfAbsent(
        tile,
        t -> {
          long span = (long) rows * (LaunchAbi.MATRIX_SIDE - 1);
          long below = Math.min(0, span);
          long above = Math.max(0, span) + LaunchAbi.MATRIX_SIDE - 1;
          if (below < Integer.MIN_VALUE || above > Integer.MAX_VALUE) {
            return null;
          }
          return new Expr[] {
            new Expr.Binary(
                BinaryOp.ADD, offset, new Expr.IntConst((int) below), PrimType.INT, t.site()),
            new Expr.Binary(
                BinaryOp.ADD, offset, new Expr.IntConst((int) above), PrimType.INT, t.site())
          };
        });
  }
}
