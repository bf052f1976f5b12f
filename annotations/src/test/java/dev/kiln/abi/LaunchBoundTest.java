package dev.kiln.abi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The launch bounds a kernel carries: their words and their arithmetic at the limit. */
class LaunchBoundTest {
  /** {@code 2 × (3·cols + 1) × arm 1's grid height ≤ 2^32}, cols being parameter 1. */
  private static final LaunchBound ROW_MAJOR =
      new LaunchBound(
          1L << 32,
          List.of(
              LaunchForm.of(2),
              LaunchForm.ofScalars(1, Map.of("1", 3L)),
              LaunchForm.roundedGrid(0, 1).ofArm(1)),
          "c's update on line 7");

  /** A launch whose int scalar 1 ('cols') and arm 1's rounded grid height are given. */
  private record Values(long cols, long height) implements LaunchValues {
    @Override
    public long scalar(int param) {
      assertEquals(1, param);
      return cols;
    }

    @Override
    public long length(int param) {
      return UNKNOWN;
    }

    @Override
    public long grid(int arm, int axis) {
      return UNKNOWN;
    }

    @Override
    public long roundedGrid(int arm, int axis) {
      assertEquals(1, arm);
      assertEquals(1, axis);
      return height;
    }

    @Override
    public long dispatchedIds(int axis) {
      return UNKNOWN;
    }

    @Override
    public long workgroupSize(int axis) {
      return 1;
    }
  }

  @Test
  void aBoundReadsInTheKernelsWords() {
    assertEquals(
        "2 × (3·cols + 1) × arm 1's grid height ≤ 4294967296",
        ROW_MAJOR.condition(List.of("c", "cols")::get));
    LaunchBound nonNegative =
        new LaunchBound(0, List.of(LaunchForm.ofScalars(1, Map.of("0", -1L))), "x");
    assertEquals("(n - 1) ≥ 0", nonNegative.condition(List.of("n")::get));
  }

  @Test
  void theProductMayReachTheLimitButNotPassIt() {
    // 2 × (3·cols + 1) × height = 2^32 exactly for cols = 5, height = 2^27
    assertTrue(ROW_MAJOR.holds(new Values(5, 1L << 27)));
    assertFalse(ROW_MAJOR.holds(new Values(5, (1L << 27) + 1)));
    assertFalse(
        ROW_MAJOR.holds(new Values(Integer.MAX_VALUE, Integer.MAX_VALUE)),
        "saturates, never overflows");
  }

  @Test
  void aNegativeFactorMeansNoInvocationReachesTheAccess() {
    assertTrue(ROW_MAJOR.holds(new Values(-1, Integer.MAX_VALUE)));
    assertTrue(ROW_MAJOR.holds(new Values(Integer.MAX_VALUE, 0)));
  }

  @Test
  void aFactorOfAnInvocationsValuesIsRefused() {
    LaunchBound odd = new LaunchBound(1, List.of(Forms.form("0+1*g0")), "x");
    assertThrows(IllegalStateException.class, () -> odd.holds(new Values(1, 1)));
  }
}
