package dev.kiln.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.abi.LaunchBound;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The launch bounds a module carries: their text round trip and their arithmetic at the limit. */
class LaunchBoundTest {
  private static final LaunchBound ROW_MAJOR = new LaunchBound(1L << 32, List.of(LaunchBound.Factor.of(2),
      new LaunchBound.Factor(1, List.of(new LaunchBound.Term("cols", 3)), 0, -1), LaunchBound.Factor.grid(1, 1)), "c's update on line 7");

  /** A launch whose int scalar 'cols' and arm grids are given. */
  private record Values(long cols, long height) implements LaunchBound.Values {
    @Override
    public long scalar(String name) {
      assertEquals("cols", name);
      return cols;
    }

    @Override
    public long roundedGrid(int arm, int axis) {
      assertEquals(1, arm);
      assertEquals(1, axis);
      return height;
    }
  }

  @Test
  void aBoundReadsBackAsWritten() {
    assertEquals(ROW_MAJOR, LaunchBound.decode(ROW_MAJOR.encode()));
    assertEquals("2 × (3·cols + 1) × arm 1's grid height ≤ 4294967296", ROW_MAJOR.condition());
  }

  @Test
  void theProductMayReachTheLimitButNotPassIt() {
    // 2 × (3·cols + 1) × height = 2^32 exactly for cols = 5, height = 2^27
    assertTrue(ROW_MAJOR.holds(new Values(5, 1L << 27)));
    assertFalse(ROW_MAJOR.holds(new Values(5, (1L << 27) + 1)));
    assertFalse(ROW_MAJOR.holds(new Values(Integer.MAX_VALUE, Integer.MAX_VALUE)), "saturates, never overflows");
  }

  @Test
  void aNegativeFactorMeansNoInvocationReachesTheAccess() {
    assertTrue(ROW_MAJOR.holds(new Values(-1, Integer.MAX_VALUE)));
    assertTrue(ROW_MAJOR.holds(new Values(Integer.MAX_VALUE, 0)));
  }
}
