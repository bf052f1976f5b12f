package dev.kiln.samples.fusion;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import corpus.CrossClassKernels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kernels that inline helpers of another class (corpus.ColorMath), compiled under javac's default
 * policy: the kernel methods, the CPU twins and Vulkan against each other.
 */
class CrossClassTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void helpersOfAnotherClassMatchJava(int n) {
    compare("toneMapped", n,
        r -> new Object[] {Bits.randomFloats(r, n, 4f), Bits.randomFloats(r, n, 4f), Bits.randomFloats(r, n, 4f),
            new float[n], 0.25f + 2 * r.nextFloat()},
        (d, a) -> CrossClassKernels.toneMapped(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2], (float[]) a[3],
            (float) a[4]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 3, 65, 4099})
  void aWindowFilledAndSummedByAnotherClassMatchesJava(int n) {
    compare("windowed", n,
        r -> new Object[] {Bits.randomFloats(r, n, 4f), new float[n], r.nextInt(6)},
        (d, a) -> CrossClassKernels.windowed(d, n, (float[]) a[0], (float[]) a[1], (int) a[2]));
  }
}
