package dev.kiln.samples.launch;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import corpus.AccumulateKernels;
import dev.kiln.Grid;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Buffer elements updated by their own invocation again and again in loops ({@code +=} of a
 * product, {@code -=}, {@code *=}, {@code ++}, on float, double, int and long, in nested loops and
 * at 2-D indices) give Java's bits on every device. On NVIDIA's driver 580 these were wrong while
 * an output buffer shared its block type with read-only inputs of the same element type.
 */
class AccumulateTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 413, 1001})
  void mvt(int n) {
    compare("mvt", n, r -> new Object[] {Bits.randomFloats(r, n * n, 1f), Bits.randomFloats(r, n, 1f),
        Bits.randomFloats(r, n, 1f)},
        (d, a) -> AccumulateKernels.mvt(d, n, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 413})
  void mvtUnchecked(int n) {
    compare("mvtUnchecked", n, r -> new Object[] {Bits.randomFloats(r, n * n, 1f), Bits.randomFloats(r, n, 1f),
        Bits.randomFloats(r, n, 1f)},
        (d, a) -> AccumulateKernels.mvtUnchecked(d, n, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void doubles(int n) {
    int k = 37;
    compare("doubles", n, r -> new Object[] {randomDoubles(r, 1000), randomDoubles(r, n), randomDoubles(r, k)},
        (d, a) -> AccumulateKernels.doubles(d, n, n, k, (double[]) a[0], (double[]) a[1], (double[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 31, 33, 4099})
  void integers(int n) {
    int k = 29;
    compare("integers", n, r -> new Object[] {Bits.randomInts(r, 777), Bits.randomInts(r, 2 * n), Bits.randomInts(r, k)},
        (d, a) -> AccumulateKernels.integers(d, n, n, k, (int[]) a[0], (int[]) a[1], (int[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void longsNested(int n) {
    int k = 11;
    compare("longsNested", n, r -> new Object[] {r.longs(501).toArray(), r.longs(n).toArray(), r.longs(40).toArray()},
        (d, a) -> AccumulateKernels.longsNested(d, n, n, k, (long[]) a[0], (long[]) a[1], (long[]) a[2]));
  }

  @ParameterizedTest(name = "rows = {0}")
  @ValueSource(ints = {1, 17, 100})
  void rowMajorGemm(int rows) {
    int columns = rows + 13;
    int inner = 37;
    compare("rowMajorGemm", rows, r -> new Object[] {Bits.randomFloats(r, rows * inner, 1f),
        Bits.randomFloats(r, inner * columns, 1f), Bits.randomFloats(r, rows * columns, 1f)},
        (d, a) -> RowMajorKernels.gemm(d, Grid.of(columns, rows), rows, columns, inner, (float[]) a[0],
            (float[]) a[1], (float[]) a[2], 0.5f));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 127, 129, 4099})
  void readBack(int n) {
    compare("readBack", n, r -> new Object[] {Bits.randomFloats(r, n + 5, 10f), Bits.randomFloats(r, n, 10f),
        Bits.randomInts(r, n)},
        (d, a) -> AccumulateKernels.readBack(d, n, n, (float[]) a[0], (float[]) a[1], (int[]) a[2]));
  }

  private static double[] randomDoubles(Random random, int n) {
    return random.doubles(n, -2, 2).toArray();
  }
}
