package dev.kiln.processor.ir;

/**
 * A loop label. Labels are compared by identity, not by name: the labels of two inlined helpers, or
 * of two fused arms, never meet even where their names are equal.
 */
public final class Label {
  private final String name;

  public Label(String name) {
    this.name = name;
  }

  /** The name, for reading the IR. */
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return name;
  }
}
