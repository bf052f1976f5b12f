package dev.kiln.samples;

import corpus.CrossClassKernels;
import dev.kiln.Device;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A kernel that inlines helpers of another class (corpus.ColorMath): Vulkan against the CPU backend. */
class CrossClassTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void helpersOfAnotherClassMatchJava(int n) {
    Random random = new Random(n);
    float[] r = Bits.randomFloats(random, n, 4f);
    float[] g = Bits.randomFloats(random, n, 4f);
    float[] b = Bits.randomFloats(random, n, 4f);
    float[][] out = new float[2][n];
    Device[] devices = {cpu, vulkan};
    for (int d = 0; d < 2; d++) {
      CrossClassKernels.toneMapped(devices[d], n, r, g, b, out[d], 1.5f);
    }
    Bits.assertSameBits("tone-mapped luminance", out[0], out[1]);
  }
}
