package dev.kiln.processor.pass.fuse;

import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.ir.Program;

/**
 * One arm of a fuse group: a kernel's program, checked and with its buffer accesses inferred,
 * before any other pass, with its analyses.
 *
 * @param kernel the kernel's name
 * @param selfComposable whether two copies of it may share a dispatch
 * @param analysis its program and what the analyses know of it
 */
public record Arm(String kernel, boolean selfComposable, Analysis analysis) {
  /**
   * An arm whose program is not analyzed yet.
   *
   * @param kernel the kernel's name
   * @param selfComposable whether two copies of it may share a dispatch
   * @param program its program
   */
  public Arm(String kernel, boolean selfComposable, Program program) {
    this(kernel, selfComposable, Analysis.of(program));
  }

  /** The arm's program. */
  public Program program() {
    return analysis.program();
  }
}
