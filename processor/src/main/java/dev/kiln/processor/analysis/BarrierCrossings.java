package dev.kiln.processor.analysis;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arrays some of whose accesses a {@code Gpu.barrier()} may separate: one accessed before a
 * barrier in program order, or in a loop that waits at a barrier (each turn follows the last). An
 * array accessed only after every barrier, outside loops with one, is never on both sides of one.
 */
public final class BarrierCrossings {
  private BarrierCrossings() {}

  /** The names of the arrays of {@code body} that a barrier may separate accesses of. */
  public static Set<String> of(List<Stmt> body) {
    Map<String, Integer> firstAccess = new HashMap<>();
    int[] position = {0};
    int[] lastBarrier = {-1};
    Set<String> crossing = new HashSet<>();
    Walk.statements(
        body,
        statement -> {
          int at = position[0]++;
          if (statement instanceof Stmt.Barrier) {
            lastBarrier[0] = at;
          }
          for (String array : accessed(List.of(statement), false)) {
            firstAccess.merge(array, at, Math::min);
          }
          if (statement instanceof Stmt.Loop loop) {
            List<Stmt> turn = new ArrayList<>(loop.body());
            turn.addAll(loop.update());
            if (Walk.anyStatement(turn, Stmt.Barrier.class::isInstance)) {
              crossing.addAll(accessed(List.of(statement), true));
            }
          }
        });
    firstAccess.forEach(
        (array, first) -> {
          if (first < lastBarrier[0]) {
            crossing.add(array);
          }
        });
    return crossing;
  }

  /**
   * The arrays {@code statements} access themselves and in their own expressions; with {@code
   * nested}, also inside.
   */
  private static Set<String> accessed(List<Stmt> statements, boolean nested) {
    Set<String> arrays = new HashSet<>();
    List<Stmt> scope = new ArrayList<>();
    if (nested) {
      Walk.statements(statements, scope::add);
    } else {
      scope.addAll(statements);
    }
    for (Stmt statement : scope) {
      switch (statement) {
        case Stmt.Store store -> arrays.add(store.array().name());
        case Stmt.Atomic atomic -> arrays.add(atomic.array().name());
        case Stmt.VectorLoad load -> arrays.add(load.buffer().name());
        case Stmt.VectorStore store -> arrays.add(store.buffer().name());
        default -> {}
      }
      for (Expr own : Walk.ownExpressions(statement)) {
        Walk.expression(
            own,
            e -> {
              if (e instanceof Expr.Load load) {
                arrays.add(load.array().name());
              }
            });
      }
    }
    return arrays;
  }
}
