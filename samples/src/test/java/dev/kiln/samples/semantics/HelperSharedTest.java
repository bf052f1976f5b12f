package dev.kiln.samples.semantics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A helper that declares workgroup memory gives each of its calls an array of its own. */
class HelperSharedTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 64, 200, 1000})
  void twoCallsOfAReducingHelperKeepTheirOwnArrays(int n) {
    int groups = (n + HelperSharedKernels.GROUP - 1) / HelperSharedKernels.GROUP;
    compare("sumAndSquares", n, r -> new Object[] {Bits.randomFloats(r, n, 3f), new float[2 * groups]},
        (d, a) -> HelperSharedKernelsKernels.sumAndSquares(d, n, (float[]) a[0], (float[]) a[1]));
    float[] in = Bits.randomFloats(new Random(n), n, 3f);
    float[] sums = new float[2 * groups];
    HelperSharedKernelsKernels.sumAndSquares(cpu, n, in, sums);
    for (int w = 0; w < groups; w++) { // the two arrays did not share: the sums differ as they must
      double total = 0;
      double squares = 0;
      for (int g = w * HelperSharedKernels.GROUP; g < Math.min(n, (w + 1) * HelperSharedKernels.GROUP); g++) {
        total += in[g];
        squares += (double) in[g] * in[g];
      }
      assertEquals(total, sums[2 * w], 1e-3, "sum of workgroup " + w);
      assertEquals(squares, sums[2 * w + 1], 1e-2, "squares of workgroup " + w);
    }
  }

  /** A helper of another class: each call is linked with arrays of its own (it crashed the processor before). */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 64, 1000})
  void aHelperOfAnotherClassKeepsItsOwnArraysToo(int n) {
    int groups = (n + HelperSharedKernels.GROUP - 1) / HelperSharedKernels.GROUP;
    compare("acrossClasses", n, r -> new Object[] {Bits.randomFloats(r, n, 3f), new float[2 * groups]},
        (d, a) -> HelperSharedKernelsKernels.acrossClasses(d, n, (float[]) a[0], (float[]) a[1]));
    float[] in = Bits.randomFloats(new Random(n), n, 3f);
    float[] same = new float[2 * groups];
    float[] across = new float[2 * groups];
    HelperSharedKernelsKernels.sumAndSquares(vulkan, n, in, same);
    HelperSharedKernelsKernels.acrossClasses(vulkan, n, in, across);
    assertArrayEquals(same, across); // the same tree in either class
  }
}
