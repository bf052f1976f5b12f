package dev.kiln.processor.analysis;

import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.Set;

/**
 * What the analyses know of one program, each analysis run at most once, when first asked: the
 * pipeline makes one per program it hands on (the checked kernel, each fused arm, the gated
 * program, the program written), and every consumer reads this instead of running an analysis of
 * its own. A program is immutable, so its analyses never go stale; a pass makes a new program, and
 * with it a new {@code Analysis}.
 */
public final class Analysis {
  private final Program program;
  private Facts facts;
  private IndexForms forms;
  private IndexBounds bounds;
  private Multiples multiples;
  private Boolean barriersOrderBuffers;

  private Analysis(Program program) {
    this.program = program;
  }

  /**
   * The analyses of {@code program}, none run yet.
   *
   * @param program the program
   * @return its analyses
   */
  public static Analysis of(Program program) {
    return new Analysis(program);
  }

  /** The program analyzed. */
  public Program program() {
    return program;
  }

  /** Each array's accesses, and the workgroup dependence of the body. */
  public Facts facts() {
    if (facts == null) {
      facts = Facts.of(program);
    }
    return facts;
  }

  /** The int expressions' affine forms in the ids, scalars and lengths. */
  public IndexForms forms() {
    if (forms == null) {
      forms = IndexForms.of(program);
    }
    return forms;
  }

  /** Which accesses are proven in bounds, whose checks the SPIR-V writer drops. */
  public IndexBounds bounds() {
    if (bounds == null) {
      bounds = IndexBounds.of(program, forms(), multiples());
    }
    return bounds;
  }

  /** The powers of two the int values are multiples of: what proves tiles and copies aligned. */
  public Multiples multiples() {
    if (multiples == null) {
      multiples = Multiples.of(program);
    }
    return multiples;
  }

  /**
   * Whether the program's barriers must order buffer memory too, not only workgroup memory: where a
   * buffer is written (stored to, or updated atomically) and also read or stored plainly, and a
   * barrier may separate some of its accesses ({@link BarrierCrossings}). A buffer only read, only
   * updated atomically (atomics are ordered among themselves), or only accessed after the last
   * barrier needs none.
   */
  public boolean barriersOrderBuffers() {
    if (barriersOrderBuffers == null) {
      barriersOrderBuffers =
          Walk.anyStatement(program.body(), Stmt.Barrier.class::isInstance) && buffersMeet();
    }
    return barriersOrderBuffers;
  }

  private boolean buffersMeet() {
    Set<String> crossing = BarrierCrossings.of(program.body());
    return program.buffers().stream()
        .filter(buffer -> crossing.contains(buffer.name()))
        .map(buffer -> facts().accessesOf(buffer.name()))
        .anyMatch(
            uses ->
                uses.stream().anyMatch(use -> use.kind().writes())
                    && uses.stream().anyMatch(use -> use.kind() != Facts.Kind.ATOMIC));
  }

  /**
   * What {@code -Akiln.dump} shows of the analyses: each array access's bounds check, whether it
   * was proven unnecessary, and what the barriers order.
   */
  public String summary() {
    IndexBounds.Tally tally = bounds().tally();
    StringBuilder text =
        new StringBuilder("bounds checks: ")
            .append(tally.proven())
            .append(" of ")
            .append(tally.accesses())
            .append(" array accesses proven in bounds, written without a check");
    if (tally.atLaunch() > 0) {
      text.append(", ")
          .append(tally.atLaunch())
          .append(" more left out at launches whose lengths, scalars and grid prove them");
    }
    if (!program.boundsChecks()) {
      text.append(" (the kernel has boundsChecks = false: none is written)");
    }
    if (Walk.anyStatement(program.body(), Stmt.Barrier.class::isInstance)) {
      text.append("; barriers order workgroup memory")
          .append(barriersOrderBuffers() ? " and buffer memory" : " only");
    }
    return text.toString();
  }
}
