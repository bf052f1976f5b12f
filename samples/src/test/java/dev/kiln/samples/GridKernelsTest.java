package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.Device;
import dev.kiln.Grid;
import dev.kiln.internal.Dispatch;
import dev.kiln.abi.KernelSpec;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * 2-D and 3-D launches: the stencil, the tiled matrix product and kernels of 1-D workgroups that
 * read y or z equal plain Java on both devices.
 */
class GridKernelsTest extends BothDevices {
  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({"1, 1", "3, 3", "17, 5", "100, 37", "513, 257"})
  void stencil(int width, int height) {
    float[] in = Bits.randomFloats(new Random(width * 31L + height), width * height, 100f);
    float[] expected = new float[in.length];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int i = y * width + x;
        expected[i] = x == 0 || y == 0 || x == width - 1 || y == height - 1
            ? in[i]
            : 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
      }
    }
    for (Device device : new Device[] {cpu, vulkan}) {
      float[] out = new float[in.length];
      StencilKernels.smooth(device, Grid.of(width, height), in, out, width, height);
      Bits.assertSameBits("stencil on " + device.backend(), expected, out);
    }
  }

  @ParameterizedTest(name = "{0} x {1} times {1} x {2}")
  @CsvSource({"1, 1, 1", "16, 16, 16", "33, 47, 29", "70, 5, 130"})
  void tiledMatrixProduct(int rows, int inner, int columns) {
    Random random = new Random(rows * 1000L + inner * 10L + columns);
    float[] a = Bits.randomFloats(random, rows * inner, 2f);
    float[] b = Bits.randomFloats(random, inner * columns, 2f);
    float[] expected = new float[rows * columns];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        float sum = 0f;
        for (int j = 0; j < inner; j++) {
          sum += a[r * inner + j] * b[j * columns + c];
        }
        expected[r * columns + c] = sum;
      }
    }
    for (Device device : new Device[] {cpu, vulkan}) {
      float[] product = new float[rows * columns];
      MatrixMultiplyKernels.multiply(device, Grid.of(columns, rows), a, b, product, rows, inner, columns);
      Bits.assertSameBits("matrix product on " + device.backend(), expected, product);
    }
  }

  /**
   * A count sizes x alone, so a count given to a 2-D kernel once launched one row of it without a
   * word: its launcher takes grids only, and the untyped entry point refuses a count.
   */
  @Test
  void aTwoDimensionalKernelIsLaunchedWithAGridOnly() throws ReflectiveOperationException {
    for (Method method : StencilKernels.class.getMethods()) {
      if (method.getName().equals("smooth")) {
        Assertions.assertEquals(Grid.class, method.getParameterTypes()[1], method.toString());
      }
    }
    Field field = StencilKernels.class.getDeclaredField("SMOOTH");
    field.setAccessible(true);
    KernelSpec spec = (KernelSpec) field.get(null);
    float[] in = new float[100 * 50];
    float[] out = new float[in.length];
    for (Device device : new Device[] {cpu, vulkan}) {
      IllegalArgumentException refused = Assertions.assertThrows(IllegalArgumentException.class,
          () -> Dispatch.run(device, spec, in.length, in, out, 100, 50));
      Assertions.assertEquals("dev.kiln.samples.Stencil#smooth has a workgroup of 16 x 16 x 1: a count sizes only x and"
          + " would launch one row of it. Fix: launch it with a Grid (Grid.of(x, y) or Grid.of(x, y, z))",
          refused.getMessage());
      Assertions.assertTrue(Arrays.equals(new float[out.length], out), "nothing ran on " + device.backend());
    }
  }

  /** A kernel that reads y or z takes grids whatever its workgroup; one that reads x only, counts. */
  @Test
  void launchersOfKernelsThatReadYOrZTakeGrids() {
    for (String kernel : new String[] {"scaleRows", "channels", "negate"}) {
      long counts = 0;
      long grids = 0;
      for (Method method : AxisKernelsKernels.class.getMethods()) {
        if (method.getName().equals(kernel)) {
          java.util.List<Class<?>> types = Arrays.asList(method.getParameterTypes());
          counts += types.get(1) == int.class ? 1 : 0;
          grids += types.get(1) == Grid.class ? 1 : 0;
        }
      }
      boolean readsX = kernel.equals("negate");
      Assertions.assertEquals(readsX ? 0 : 3, grids, kernel + "'s grid overloads");
      Assertions.assertEquals(readsX ? 5 : 0, counts, kernel + "'s count overloads"); // device, arrays, split, sharded, batch
    }
  }

  @ParameterizedTest(name = "{0} x {1} rows, grid height {2}")
  @CsvSource({"1, 1, 1", "100, 37, 5", "65, 3, 8", "130, 200, 7"})
  void gridStrideRowsOfA1DWorkgroup(int width, int rows, int gridRows) {
    Random random = new Random(width * 7L + rows);
    float[] in = Bits.randomFloats(random, width * rows, 10f);
    float[] expected = new float[in.length];
    for (int i = 0; i < in.length; i++) {
      expected[i] = in[i] * 1.5f;
    }
    for (Device device : new Device[] {cpuMethods, cpu, vulkan}) {
      float[] out = new float[in.length];
      AxisKernelsKernels.scaleRows(device, Grid.of(width, gridRows), in, out, width, rows, 1.5f);
      Bits.assertSameBits("scaleRows on " + device, expected, out);
    }
  }

  @ParameterizedTest(name = "{0} wide, {1} channels")
  @CsvSource({"1, 1", "33, 3", "100, 17"})
  void aHelperReadsZ(int width, int channels) {
    float[] expected = new float[width * channels];
    for (int c = 0; c < channels; c++) {
      for (int x = 0; x < width; x++) {
        expected[c * width + x] = c + x * 0.5f;
      }
    }
    for (Device device : new Device[] {cpuMethods, cpu, vulkan}) {
      float[] out = new float[width * channels];
      AxisKernelsKernels.channels(device, Grid.of(width, 1, channels), out, width, channels);
      Bits.assertSameBits("channels on " + device, expected, out);
    }
  }
}
