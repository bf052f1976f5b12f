package dev.kiln.processor.ir;

/**
 * Where a node came from: its source line (for fault reports and messages), an id that the compiler
 * maps back to the source tree, so that a pass can report on the exact expression, and in a fused
 * group the arm it is in (0 in a kernel), whose faults come after the earlier arms' in Java's
 * order.
 */
public record Site(int line, int id, int arm) {
  /** The site of a kernel's node. */
  public Site(int line, int id) {
    this(line, id, 0);
  }

  /** This site, in fused group arm {@code arm}. */
  public Site inArm(int arm) {
    return new Site(line, id, arm);
  }
}
