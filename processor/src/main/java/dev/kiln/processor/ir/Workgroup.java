package dev.kiln.processor.ir;

/** A workgroup size. */
public record Workgroup(int x, int y, int z) {
  public Workgroup {
    if (x < 1 || y < 1 || z < 1) {
      throw new IllegalArgumentException(
          "workgroup sizes must be positive: " + x + "," + y + "," + z);
    }
  }

  public long invocations() {
    return (long) x * y * z;
  }

  /** The size along {@code axis} (0, 1 or 2). */
  public int size(int axis) {
    return switch (axis) {
      case 0 -> x;
      case 1 -> y;
      case 2 -> z;
      default -> throw new IllegalArgumentException("axis " + axis);
    };
  }

  /** The axis-wise larger of this and {@code other}. */
  public Workgroup max(Workgroup other) {
    return new Workgroup(Math.max(x, other.x), Math.max(y, other.y), Math.max(z, other.z));
  }
}
