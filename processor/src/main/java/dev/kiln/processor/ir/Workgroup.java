package dev.kiln.processor.ir;

/** A workgroup size. */
public record Workgroup(int x, int y, int z) {
  public Workgroup {
    if (x < 1 || y < 1 || z < 1) {
      throw new IllegalArgumentException("workgroup sizes must be positive: " + x + "," + y + "," + z);
    }
  }

  public long invocations() {
    return (long) x * y * z;
  }
}
