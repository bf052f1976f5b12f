package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which locals statements and expressions assign: the variables whose facts a walk forgets where
 * they may change.
 */
public final class Assignments {
  private Assignments() {}

  /** The locals that statements of {@code body} assign, those inside effects included. */
  public static Set<Local> assigned(List<Stmt> body) {
    Set<Local> locals = new HashSet<>();
    Walk.statements(
        body,
        statement -> {
          switch (statement) { // exhaustive: a new statement that assigns locals must say so here
            case Stmt.Assign assign -> locals.add(assign.local());
            case Stmt.Atomic atomic -> {
              if (atomic.result() != null) {
                locals.add(atomic.result());
              }
            }
            case Stmt.VectorLoad load -> locals.addAll(load.lanes());
            case Stmt.Store s -> {}
            case Stmt.Copy s -> {}
            case Stmt.DeclareShared s -> {}
            case Stmt.VectorStore s -> {}
            case Stmt.Matrix s -> {}
            case Stmt.ClearArray s -> {}
            case Stmt.Barrier s -> {}
            case Stmt.If s -> {}
            case Stmt.Loop s -> {}
            case Stmt.Switch s -> {}
            case Stmt.Break s -> {}
            case Stmt.Continue s -> {}
            case Stmt.Return s -> {}
            case Stmt.Call call -> throw call.unlinked();
          }
        });
    return locals;
  }

  /** The locals that effects inside {@code expression} assign. */
  static Set<Local> assigned(Expr expression) {
    Set<Local> locals = new HashSet<>();
    Walk.expression(
        expression,
        e -> {
          if (e instanceof Expr.Effect effect) {
            locals.addAll(assigned(effect.statements()));
          }
        });
    return locals;
  }

  /** How many statements of {@code loop} assign {@code local}, atomic results included. */
  static int count(Stmt.Loop loop, Local local) {
    int[] count = {0};
    Walk.statements(
        List.of(loop),
        statement -> {
          if (statement instanceof Stmt.Assign assign && assign.local().equals(local)
              || statement instanceof Stmt.Atomic atomic && local.equals(atomic.result())) {
            count[0]++;
          }
        });
    return count[0];
  }

  /** Whether {@code form} reads one of {@code locals}, inside products too. */
  static boolean mentionsAny(IndexForm form, Set<Local> locals) {
    return form instanceof Affine affine
        && affine.coefficients().keySet().stream()
            .anyMatch(
                term ->
                    IndexForm.mentions(
                        term,
                        t -> t instanceof IndexForm.Variable v && locals.contains(v.local())));
  }
}
