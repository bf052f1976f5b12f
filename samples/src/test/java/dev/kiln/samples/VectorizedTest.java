package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.VectorizedKernels;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Vectorized kernels (4 elements per invocation, 16-byte loads and stores where all four are in
 * bounds, scalar elsewhere) give Java's results bit for bit: every tail length around multiples of
 * 4, buffers of different lengths in one kernel, every element type, and faults in the vector path
 * and in the tail.
 */
class VectorizedTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1020, 1021, 1022, 1023, 1024, 1025, 1026, 1027, 4099})
  void everyTypeEveryTailEveryLength(int n) {
    compare("mixed", n, r -> new Object[] {Bits.randomFloats(r, n, 4f), Bits.randomInts(r, n + 1),
            r.longs(Math.max(0, n - 1)).toArray(), r.doubles(n + 3).toArray(), 1.5f},
        (d, a) -> VectorizedKernels.mixed(d, n + 2, (float[]) a[0], (int[]) a[1], (long[]) a[2], (double[]) a[3],
            (float) a[4]));
    compare("square", n, r -> new Object[] {Bits.randomFloats(r, n + 3, 4f), new float[n]},
        (d, a) -> VectorizedKernels.square(d, n + 5, (float[]) a[0], (float[]) a[1]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {64, 1023})
  void faultInTheVectorPath(int n) {
    int[] picks = new int[n];
    picks[n / 2] = 2; // one element indexes its private array of two past its end
    ArrayIndexOutOfBoundsException onVulkan = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> VectorizedKernels.faulty(vulkan, n, new float[n], picks.clone()));
    assertTrue(onVulkan.getMessage().startsWith("Index 2 out of bounds"), onVulkan.getMessage());
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> VectorizedKernels.faulty(cpu, n, new float[n], picks.clone()));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {5, 1023})
  void faultInTheTail(int n) {
    int[] picks = new int[n + 3];
    float[] x = new float[n]; // three elements short of the grid
    ArrayIndexOutOfBoundsException onVulkan = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> VectorizedKernels.faulty(vulkan, n + 3, x, picks));
    String message = onVulkan.getMessage();
    assertTrue(message.contains("buffer 'x'"), message);
    int index = Integer.parseInt(message.replaceAll("^Index (-?\\d+) .*", "$1"));
    assertTrue(index >= n && index < n + 3, message);
    float[] expected = new float[n];
    Arrays.fill(expected, 0f);
    for (int i = 0; i < n; i++) {
      expected[i] = i;
    }
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> VectorizedKernels.faulty(cpu, n + 3, new float[n], picks));
  }
}
