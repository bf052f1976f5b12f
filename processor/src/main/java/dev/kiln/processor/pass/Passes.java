package dev.kiln.processor.pass;

import dev.kiln.abi.SplitForm;
import dev.kiln.processor.analysis.AliasConflicts;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.analysis.SplitForms;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * The passes between checked IR and the SPIR-V writer: for a kernel the gate, for a group fusion
 * ({@code pass.fuse}, which gates each arm); then for both vectorization, labelled jumps, and the
 * unrolling of loops that index private arrays ({@link RegisterUnrolling}).
 */
public final class Passes {
  private Passes() {}

  /**
   * A lowered, checked kernel made ready for the writer: gated, vectorized where it qualifies (and
   * {@code vectorize} allows), then without labelled jumps, its loops over private arrays unrolled.
   */
  public static Vectorize.Decision kernel(Program lowered, boolean vectorize) {
    return finish(Gate.kernel(lowered), vectorize);
  }

  /**
   * A gated kernel or fused group: its split form and alias conflicts decided, vectorized where it
   * qualifies and is allowed, then without labelled jumps, its loops over private arrays unrolled.
   */
  public static Vectorize.Decision finish(Program gated, boolean vectorize) {
    Analysis analysis = Analysis.of(gated);
    SplitForm split = SplitForms.of(analysis); // on the kernel's own indices, before vectorization
    Vectorize.Decision decision =
        vectorize
            ? Vectorize.apply(analysis)
            : new Vectorize.Decision.Kept(gated, "vectorization is off (-Akiln.vectorize=false)");
    Program ready =
        RegisterUnrolling.apply(withoutLabelledJumps(decision.program()))
            .withSplit(split)
            .withAliasConflicts(AliasConflicts.of(analysis));
    return switch (decision) {
      case Vectorize.Decision.Vectorized v -> new Vectorize.Decision.Vectorized(ready);
      case Vectorize.Decision.Kept kept -> new Vectorize.Decision.Kept(ready, kept.reason());
    };
  }

  static Program withoutLabelledJumps(Program program) {
    Local jump = Local.fresh("jump", PrimType.INT);
    boolean[] used = {false};
    List<Stmt> body =
        LabelledJumps.lower(
            program.body(),
            () -> {
              used[0] = true;
              return jump;
            });
    if (!used[0]) {
      return program.withBody(program.locals(), body);
    }
    List<Local> locals = new ArrayList<>(program.locals());
    locals.add(jump);
    return program.withBody(locals, body);
  }
}
