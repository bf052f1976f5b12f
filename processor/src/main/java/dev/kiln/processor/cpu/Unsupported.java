package dev.kiln.processor.cpu;

/** A kernel shape the twin does not handle; the CPU backend then runs the method itself. */
final class Unsupported extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What a twin of cooperative matrices would need: they are left to the kernel's own Java. */
  static final String MATRICES = "cooperative matrices (the kernel's own Java computes them)";

  Unsupported(String what) {
    super(what);
  }
}
