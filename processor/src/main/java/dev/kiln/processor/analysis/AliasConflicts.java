package dev.kiln.processor.analysis;

import dev.kiln.abi.AliasConflict;
import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchForm;
import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The pairs of a program's buffers that one array may not be passed for ({@link AliasConflict}).
 * Two buffers of one element type, one of them written, may be one array only where every access of
 * both is proven the invocation's own element ({@link OwnElement}, with no launch bound but a grid
 * of height and depth 1, which is all a one-dimensional program's launcher gives) and all of them
 * are the same lane, and only one of the two is written, after every read of the other: each
 * invocation then reads and writes one element of the array, and reads it before it writes it, in
 * its program order as in Java's loop, and in the vectorized program's, which reads first. Run on
 * the gated program, before vectorization, whose accesses of the invocation's own elements keep
 * that order.
 */
public final class AliasConflicts {
  private AliasConflicts() {}

  /**
   * The conflicts of {@code analysis}'s program, in the order of its buffers.
   *
   * @param analysis a gated kernel or fused group, with its analyses
   * @return the pairs that may not be one array
   */
  public static List<AliasConflict> of(Analysis analysis) {
    Program program = analysis.program();
    Set<String> written = Walk.writtenArrays(program.body());
    Set<String> unproven = new HashSet<>();
    Map<String, List<OwnElement>> proofs = new HashMap<>();
    // a launcher gives a program of a one-dimensional workgroup counts alone: grids of height and
    // depth 1
    boolean flat = program.workgroup().y() == 1 && program.workgroup().z() == 1;
    BiConsumer<ArrayDecl, Expr> access =
        (array, index) -> {
          if (array instanceof BufferDecl buffer) {
            OwnElement own = analysis.bounds().ownElement(index);
            if (own == null
                || !own.bounds().stream().allMatch(bound -> flat && isFlatGrid(bound))) {
              unproven.add(buffer.name());
            } else {
              proofs.computeIfAbsent(buffer.name(), name -> new ArrayList<>()).add(own);
            }
          }
        };
    Walk.statements(
        program.body(),
        statement -> {
          switch (statement) {
            case Stmt.Store store -> access.accept(store.array(), store.index());
            case Stmt.Atomic atomic -> access.accept(atomic.array(), atomic.index());
            case Stmt.Copy copy -> { // a range of elements: no one element of the invocation's own
              unproven.add(copy.source().name());
              unproven.add(copy.target().name());
            }
            case Stmt.Matrix tile -> {
              if (tile.op() instanceof MatrixOp.Load load) {
                unproven.add(load.array().name());
              } else if (tile.op() instanceof MatrixOp.Store store) {
                unproven.add(store.array().name());
              }
            }
            case Stmt.VectorLoad vector -> unproven.add(vector.buffer().name());
            case Stmt.VectorStore vector -> unproven.add(vector.buffer().name());
            case Stmt.Call call -> // not inlined: whatever it does
                call.arrays().forEach(array -> unproven.add(array.name()));
            default -> {}
          }
        });
    Walk.expressions(
        program.body(),
        expression -> {
          if (expression instanceof Expr.Load load) {
            access.accept(load.array(), load.index());
          }
        });
    List<AliasConflict> conflicts = new ArrayList<>();
    forEachPair(
        program.buffers(),
        (first, second) -> {
          if ((written.contains(first.name()) || written.contains(second.name()))
              && !(sameLane(first.name(), second.name(), unproven, proofs)
                  && readsFirst(program.body(), first.name(), second.name(), written))) {
            conflicts.add(new AliasConflict(first.binding(), second.binding()));
          }
        });
    return conflicts;
  }

  /**
   * The buffers of a program whose conflicts are decided that a launch may give one array together
   * with another, one of the two written: the writer decorates them {@code Aliased}, so that a
   * driver keeps the invocation's accesses of the two in program order.
   *
   * @param program a program with its {@link Program#aliasConflicts()}
   * @return the names of those buffers
   */
  public static Set<String> sharing(Program program) {
    Set<AliasConflict> conflicts = Set.copyOf(program.aliasConflicts());
    Set<String> sharing = new HashSet<>();
    forEachPair(
        program.buffers(),
        (first, second) -> {
          if ((first.access() != Access.READ || second.access() != Access.READ)
              && !conflicts.contains(new AliasConflict(first.binding(), second.binding()))) {
            sharing.add(first.name());
            sharing.add(second.name());
          }
        });
    return sharing;
  }

  /**
   * Each pair of {@code buffers} of one element type, in buffer order: the pairs one array could be
   * given for.
   */
  private static void forEachPair(
      List<BufferDecl> buffers, BiConsumer<BufferDecl, BufferDecl> pair) {
    for (int a = 0; a < buffers.size(); a++) {
      for (int b = a + 1; b < buffers.size(); b++) {
        if (buffers.get(a).element() == buffers.get(b).element()) {
          pair.accept(buffers.get(a), buffers.get(b));
        }
      }
    }
  }

  /**
   * Whether only one of the two buffers is written and every read of the other comes before every
   * write of it in the invocation's program order (not both inside one loop): the vectorized
   * program reads each buffer's elements first and writes them last, as the invocation's own
   * registers.
   */
  private static boolean readsFirst(
      List<Stmt> body, String first, String second, Set<String> written) {
    if (written.contains(first) && written.contains(second)) {
      return false;
    }
    String write = written.contains(first) ? first : second;
    String read = write.equals(first) ? second : first;
    boolean[] wrote = {false};
    boolean[] late = {false};
    Walk.statements(
        body,
        statement -> {
          if (statement instanceof Stmt.Loop loop
              && touches(loop.body(), read, false)
              && touches(loop.body(), write, true)) {
            late[0] = true; // a later turn reads after an earlier one wrote
          }
          late[0] |=
              wrote[0]
                  && Walk.anyExpression(
                      List.of(statement),
                      e -> e instanceof Expr.Load load && load.array().name().equals(read));
          wrote[0] |= writes(statement, write);
        });
    return !late[0];
  }

  /** Whether {@code body} stores into {@code buffer} ({@code stores}) or loads it. */
  private static boolean touches(List<Stmt> body, String buffer, boolean stores) {
    return stores
        ? Walk.anyStatement(body, statement -> writes(statement, buffer))
        : Walk.anyExpression(
            body, e -> e instanceof Expr.Load load && load.array().name().equals(buffer));
  }

  private static boolean writes(Stmt statement, String buffer) {
    return switch (statement) {
      case Stmt.Store store -> store.array().name().equals(buffer);
      case Stmt.Atomic atomic -> atomic.array().name().equals(buffer);
      default -> false;
    };
  }

  /**
   * Whether {@code bound} asks no more than a grid of height or depth 1, which every count gives.
   */
  private static boolean isFlatGrid(LaunchBound bound) {
    return bound.limit() == 1
        && bound.factors().size() == 1
        && (bound.factors().getFirst().equals(LaunchForm.roundedGrid(0, 1))
            || bound.factors().getFirst().equals(LaunchForm.roundedGrid(0, 2)));
  }

  /**
   * Whether every access of both buffers is proven the invocation's own element, all at one lane.
   */
  private static boolean sameLane(
      String first, String second, Set<String> unproven, Map<String, List<OwnElement>> proofs) {
    if (unproven.contains(first) || unproven.contains(second)) {
      return false;
    }
    List<OwnElement> all = new ArrayList<>(proofs.getOrDefault(first, List.of()));
    all.addAll(proofs.getOrDefault(second, List.of()));
    return all.stream().allMatch(proof -> proof.sameLane(all.getFirst()));
  }
}
