package dev.kiln.processor.ir;

import java.util.List;
import java.util.function.Predicate;

/** Queries over statement trees. */
public final class Statements {
  private Statements() {}

  /** Whether any statement in {@code statements}, nested ones included, satisfies {@code test}. */
  public static boolean any(List<Stmt> statements, Predicate<Stmt> test) {
    for (Stmt statement : statements) {
      if (test.test(statement)) {
        return true;
      }
      boolean nested = switch (statement) {
        case Stmt.If branch -> any(branch.then(), test) || any(branch.otherwise(), test);
        case Stmt.Loop loop -> any(loop.body(), test) || any(loop.update(), test);
        case Stmt.Switch choice -> choice.cases().stream().anyMatch(c -> any(c.body(), test));
        case Stmt.Assign a -> false;
        case Stmt.Store s -> false;
        case Stmt.Atomic a -> false;
        case Stmt.Barrier b -> false;
        case Stmt.ClearArray c -> false;
        case Stmt.Break b -> false;
        case Stmt.Continue c -> false;
        case Stmt.Return r -> false;
      };
      if (nested) {
        return true;
      }
    }
    return false;
  }
}
