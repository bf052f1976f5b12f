package dev.kiln.processor.pass;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import java.util.List;

/**
 * The launch gate: a dispatch runs whole workgroups, so invocations past the grid of the launch (or
 * of their arm) must do nothing. Code that waits at barriers is gated per workgroup, uniformly,
 * since every invocation of a workgroup must reach each barrier.
 */
public final class Gate {
  private Gate() {}

  /**
   * A kernel's program, gated: its body runs inside the grid. A kernel with barriers runs whole
   * workgroups, as many as cover its grid, and guards its own accesses.
   */
  public static Program kernel(Program program) {
    if (program.usesBarriers()) {
      return program;
    }
    return program.withBody(program.locals(), arm(program.body(), 0, false));
  }

  /**
   * {@code body} run only where arm {@code arm}'s grid covers the invocation (or its workgroup).
   */
  public static List<Stmt> arm(List<Stmt> body, int arm, boolean wholeWorkgroups) {
    return List.of(new Stmt.If(new Expr.InLaunch(arm, wholeWorkgroups), body, List.of()));
  }
}
