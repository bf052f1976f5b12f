package dev.kiln.abi;

import static dev.kiln.abi.Forms.proof;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The proofs a kernel hands the runtime, and their arithmetic at the edges where an access leaves
 * its buffer. The proofs are the processor's, copied from the 5-point stencil's description ({@code
 * bench}'s {@code Workgroups.stencil(in, out, width, height)}: {@code out[i] = … in[i + width] …}
 * with {@code i = y * width + x} inside the border, on a 16 x 16 workgroup), without the facts of
 * the launch gate, which the guards make redundant. Parameters: in 0, out 1, width 2, height 3.
 */
class LaunchProofTest {
  /**
   * {@code in[y * width + x + width]} where {@code 0 < x < width - 1} and {@code 0 < y < height -
   * 1}.
   */
  private static final LaunchProof BELOW =
      proof(
          "0+1*g0+1*g1*s:2+1*s:2"
              + " -1+-1*g0+-1*g1*s:2+1*n:0+-1*s:2 | -1+-1*g0+1*s:2 -1+-1*g1+1*s:3"
              + " | 0+1*g0 0+1*g1 1+1*g0+-1*s:2 1+1*g1+-1*s:3 | 2147483647+1*s:2 2147483648+-1*s:2"
              + " 2147483647+1*s:3 2147483648+-1*s:3 | in[(globalId(1))*(scalar width) + globalId(0) + scalar width] at line 65");

  /** {@code out[y * width + x]} where {@code x < width} and {@code y < height}. */
  private static final LaunchProof BORDER =
      proof(
          "0+1*g0+1*g1*s:2 -1+-1*g0+-1*g1*s:2+1*n:1"
              + " | -1+-1*g0+1*s:2 -1+-1*g1+1*s:3 | - | - | out[(globalId(1))*(scalar width) + globalId(0)] at line 63");

  @Test
  void aProofNamesTheParametersItReads() {
    assertEquals(Set.of(0, 2, 3), BELOW.parameters());
    assertEquals(Set.of(1, 2, 3), BORDER.parameters());
  }

  @Test
  void numberingReplacesNamesInProducts() {
    LaunchProof named = proof("0+1*g1*s:width+1*n:in | - | - | - | a");
    assertEquals(
        proof("0+1*g1*s:2+1*n:0 | - | - | - | a"),
        named.numbered(name -> java.util.List.of("in", "out", "width").indexOf(name)));
  }

  @Test
  void theRowBelowIsInBoundsExactlyWhereTheBufferHoldsTheGrid() {
    // the largest index read is (height - 2) · width + (width - 2) + width = width · height - 2
    assertTrue(BELOW.holds(new Stencil(1000, 700, 1000 * 700, 1000 * 700)));
    assertTrue(
        BELOW.holds(new Stencil(1000, 700, 1000 * 700 - 1, 0)), "the last element is never read");
    assertFalse(BELOW.holds(new Stencil(1000, 700, 1000 * 700 - 2, 0)));
    assertTrue(BORDER.holds(new Stencil(1000, 700, 0, 1000 * 700)));
    assertFalse(BORDER.holds(new Stencil(1000, 700, 0, 1000 * 700 - 1)));
  }

  @Test
  void gridsThatNoInvocationEntersProveAnything() {
    assertTrue(BELOW.holds(new Stencil(2, 700, 0, 0)), "no x with 0 < x < 1");
    assertTrue(BELOW.holds(new Stencil(1000, 0, 0, 0)));
    assertTrue(BORDER.holds(new Stencil(0, 0, 0, 0)));
  }

  @Test
  void indicesThatWouldWrapProveNothing() {
    // y · width past the int range: the int index is not the exact one, whatever the length
    assertFalse(BORDER.holds(new Stencil(1 << 16, 1 << 16, Integer.MAX_VALUE, Integer.MAX_VALUE)));
    // a negative width: x < width holds for no x, the border write is never reached
    assertTrue(BORDER.holds(new Stencil(-5, 700, 0, 0)));
  }

  /**
   * {@code in[first + 7]} where {@code first <= width - 8}, {@code first = workgroupId(0) · 2^20 +
   * 8 · localId(0)}: the fact says something of the int {@code first} only where no invocation's
   * ids make it wrap, which the proof requires of the launch's ids.
   */
  @Test
  void aFactOnIdsHoldsWhereNoInvocationsIdsWrapIt() {
    LaunchProof tile =
        proof(
            "7+8*l0+1048576*w0 -8+-8*l0+1*n:0+-1048576*w0 | -8+-8*l0+1*s:2+-1048576*w0 | -"
                + " | 2147483648+8*l0+1048576*w0 2147483647+-8*l0+-1048576*w0"
                + " 2147483640+1*s:2 2147483655+-1*s:2 | in[first + 7]");
    // 1000 wide: workgroups 0..62 of 16, first up to 62 · 2^20 + 120
    assertTrue(tile.holds(new Stencil(1000, 1, 1000, 0)));
    assertFalse(tile.holds(new Stencil(1000, 1, 999, 0)), "in shorter than width");
    // 2^16 wide: workgroups up to 4095, whose first passes 2^31 and wraps
    assertFalse(tile.holds(new Stencil(1 << 16, 1, Integer.MAX_VALUE, 0)));
  }

  /**
   * {@code values[g0 + v]} under {@code if (withValues != 0)} and a guard {@code width >= 1}: a
   * launch whose scalars make a fact false reaches no such access, so its check can go, whatever
   * the target.
   */
  @Test
  void anAccessTheLaunchsScalarsMakeUnreachableIsProven() {
    LaunchProof guarded =
        proof("0+1*g0+1*v1 -1+-1*g0+1*n:0+-1*v1 | -1+1*s:2 | 0+1*s:3 | - | values[g0 + v]");
    assertTrue(guarded.holds(new Stencil(0, 1, 0, 0)), "width 0: the fact width - 1 >= 0 fails");
    assertFalse(guarded.holds(new Stencil(5, 1, 0, 0)));
    assertTrue(guarded.holds(new Stencil(5, 0, 0, 0)), "height 0: the fact height != 0 fails");
  }

  @Test
  void aBufferTheLaunchCannotMeasureProvesNothing() {
    LaunchProof other =
        proof(
            "0+1*g0+1*g1*s:2 -1+-1*g0+-1*g1*s:2+1*n:5 | -1+-1*g0+1*s:2 -1+-1*g1+1*s:3 | - | - | x");
    assertFalse(other.holds(new Stencil(1000, 700, 0, 1000 * 700)));
  }

  /**
   * A launch of the stencil's 16 x 16 workgroup over a width x height grid, with the given lengths.
   */
  record Stencil(long width, long height, long in, long out) implements LaunchValues {
    @Override
    public long scalar(int param) {
      return param == 2 ? width : param == 3 ? height : UNKNOWN;
    }

    @Override
    public long length(int param) {
      return param == 0 ? in : param == 1 ? out : UNKNOWN;
    }

    @Override
    public long dispatchedIds(int axis) {
      return roundedGrid(0, axis);
    }

    @Override
    public long grid(int arm, int axis) {
      return arm > 0 ? UNKNOWN : axis == 0 ? width : axis == 1 ? height : 1;
    }

    @Override
    public long roundedGrid(int arm, int axis) {
      long workgroup = workgroupSize(axis);
      return (grid(arm, axis) + workgroup - 1) / workgroup * workgroup;
    }

    @Override
    public long workgroupSize(int axis) {
      return axis == 2 ? 1 : 16;
    }
  }
}
