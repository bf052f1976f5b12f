package dev.kiln.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.abi.LaunchProof;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The proofs a module hands the runtime: their text round trip, and their arithmetic at the edges
 * where an access leaves its buffer. The proofs are the processor's, copied from the 5-point
 * stencil's module ({@code bench}'s {@code Workgroups.stencil}: {@code out[i] = … in[i + width] …}
 * with {@code i = y * width + x} inside the border, on a 16 x 16 workgroup), without the facts of
 * the launch gate, which the guards make redundant.
 */
class LaunchProofTest {
  /** {@code in[y * width + x + width]} where {@code 0 < x < width - 1} and {@code 0 < y < height - 1}. */
  private static final LaunchProof BELOW = LaunchProof.decode("0+1*g0+1*g1*s:width+1*s:width"
      + " -1+-1*g0+-1*g1*s:width+1*n:in+-1*s:width | -1+-1*g0+1*s:width -1+-1*g1+1*s:height"
      + " | 0+1*g0 0+1*g1 1+1*g0+-1*s:width 1+1*g1+-1*s:height | 2147483647+1*s:width 2147483648+-1*s:width"
      + " 2147483647+1*s:height 2147483648+-1*s:height | in[(globalId(1))*(scalar width) + globalId(0) + scalar width] at line 65");
  /** {@code out[y * width + x]} where {@code x < width} and {@code y < height}. */
  private static final LaunchProof BORDER = LaunchProof.decode("0+1*g0+1*g1*s:width -1+-1*g0+-1*g1*s:width+1*n:out"
      + " | -1+-1*g0+1*s:width -1+-1*g1+1*s:height | - | - | out[(globalId(1))*(scalar width) + globalId(0)] at line 63");

  /** A launch of a 16 x 16 workgroup over a width x height grid, with the given lengths. */
  private record Values(long width, long height, long in, long out) implements LaunchProof.Values {
    @Override
    public long scalar(String name) {
      return Map.of("width", width, "height", height).get(name);
    }

    @Override
    public long length(String name) {
      return Map.of("in", in, "out", out).getOrDefault(name, LaunchProof.UNKNOWN);
    }

    @Override
    public long dispatchedIds(int axis) {
      long size = axis == 0 ? width : axis == 1 ? height : 1;
      long workgroup = workgroupSize(axis);
      return (size + workgroup - 1) / workgroup * workgroup;
    }

    @Override
    public long grid(int arm, int axis) {
      return axis == 0 ? width : axis == 1 ? height : 1;
    }

    @Override
    public long workgroupSize(int axis) {
      return axis == 2 ? 1 : 16;
    }
  }

  @Test
  void aProofReadsBackAsWritten() {
    assertEquals(BELOW, LaunchProof.decode(BELOW.encode()));
    assertEquals(BORDER, LaunchProof.decode(BORDER.encode()));
  }

  @Test
  void aProofNamesTheParametersItReads() {
    assertEquals(java.util.Set.of("height", "in", "width"), BELOW.parameters());
    assertEquals(java.util.Set.of("height", "out", "width"), BORDER.parameters());
  }

  @Test
  void theRowBelowIsInBoundsExactlyWhereTheBufferHoldsTheGrid() {
    // the largest index read is (height - 2) · width + (width - 2) + width = width · height - 2
    assertTrue(BELOW.holds(new Values(1000, 700, 1000 * 700, 1000 * 700)));
    assertTrue(BELOW.holds(new Values(1000, 700, 1000 * 700 - 1, 0)), "the last element is never read");
    assertFalse(BELOW.holds(new Values(1000, 700, 1000 * 700 - 2, 0)));
    assertTrue(BORDER.holds(new Values(1000, 700, 0, 1000 * 700)));
    assertFalse(BORDER.holds(new Values(1000, 700, 0, 1000 * 700 - 1)));
  }

  @Test
  void gridsThatNoInvocationEntersProveAnything() {
    assertTrue(BELOW.holds(new Values(2, 700, 0, 0)), "no x with 0 < x < 1");
    assertTrue(BELOW.holds(new Values(1000, 0, 0, 0)));
    assertTrue(BORDER.holds(new Values(0, 0, 0, 0)));
  }

  @Test
  void indicesThatWouldWrapProveNothing() {
    // y · width past the int range: the int index is not the exact one, whatever the length
    assertFalse(BORDER.holds(new Values(1 << 16, 1 << 16, Integer.MAX_VALUE, Integer.MAX_VALUE)));
    // a negative width: x < width holds for no x, the border write is never reached
    assertTrue(BORDER.holds(new Values(-5, 700, 0, 0)));
  }

  @Test
  void aBufferTheLaunchCannotMeasureProvesNothing() {
    LaunchProof other = LaunchProof.decode(BORDER.encode().replace("n:out", "n:elsewhere"));
    assertFalse(other.holds(new Values(1000, 700, 0, 1000 * 700)));
  }
}
