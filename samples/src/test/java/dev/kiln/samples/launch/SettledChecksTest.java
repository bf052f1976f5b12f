package dev.kiln.samples.launch;

import dev.kiln.samples.Stencil;
import dev.kiln.samples.StencilKernels;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Grid;
import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.Launch;
import dev.kiln.backend.SettledChecks;
import java.lang.reflect.Field;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Checks a launch settles: where the launch's lengths, scalars and grid prove an access in bounds,
 * the Vulkan backend runs the module with that check left out, and the results stay Java's; where
 * they do not, the launch runs checked and faults as Java does, also right after a settled launch
 * of the same kernel.
 */
class SettledChecksTest extends BothDevices {
  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({"1, 1", "3, 3", "17, 5", "37, 23", "100, 61", "256, 16"})
  void aStencilWhoseBufferHoldsTheGridRunsSettledAndGivesJavasBits(int width, int height) {
    // Stencil.smooth has no guard of its own: the launch gate keeps the ids inside the grid
    KernelSpec smooth = spec(StencilKernels.class, "SMOOTH");
    float[] cells = new float[width * height];
    assertTrue(settles(smooth, Grid.of(width, height), cells, cells, width, height));
    compare("stencil", width * 1000 + height, random -> new Object[] {floats(random, width * height),
        new float[width * height], width, height}, (device, args) -> StencilKernels.smooth(device,
        Grid.of(width, height), (float[]) args[0], (float[]) args[1], (int) args[2], (int) args[3]));
  }

  @Test
  void aStencilWhoseBufferIsShortRunsCheckedAndFaultsAsJavaDoes() {
    int width = 37;
    int height = 23;
    float[] whole = new float[width * height];
    float[] shortIn = new float[width * height - 2]; // in[i + width] reaches width · height - 2
    assertFalse(settles(spec(StencilKernels.class, "SMOOTH"), Grid.of(width, height), shortIn, whole, width, height));
    for (int round = 0; round < 2; round++) { // after a settled launch as well: the answer follows the values
      StencilKernels.smooth(vulkan, Grid.of(width, height), whole, whole.clone(), width, height);
      ArrayIndexOutOfBoundsException onVulkan = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> StencilKernels.smooth(vulkan, Grid.of(width, height), shortIn, whole.clone(), width, height));
      ArrayIndexOutOfBoundsException onCpu = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> StencilKernels.smooth(cpu, Grid.of(width, height), shortIn, whole.clone(), width, height));
      assertTrue(onVulkan.getMessage().contains("out of bounds for length " + shortIn.length), onVulkan.getMessage());
      assertTrue(onVulkan.getMessage().contains("buffer 'in'"), onVulkan.getMessage());
      assertTrue(onCpu.getMessage().contains("out of bounds for length " + shortIn.length), onCpu.getMessage());
    }
  }

  @Test
  void theGridAndAScalarDecideAnUnguardedAccess() {
    KernelSpec shifted = spec(SettledKernelsKernels.class, "SHIFTED");
    int n = 1000;
    int[] in = new int[n + 5];
    int[] out = new int[n];
    assertTrue(settles(shifted, Grid.of(n, 1), in, out, 5), "ids 0..999 read in[5..1004]");
    assertEquals(Optional.empty(), SettledChecks.explanation(launch(shifted, Grid.of(n, 1), in, out, 5)));
    assertFalse(settles(shifted, Grid.of(n, 1), in, out, 6));
    assertEquals(Optional.of("dev.kiln.samples.launch.SettledKernels#shifted runs with its bounds checks at grid"
        + " [1000, 1, 1]: the launch's values do not prove in[globalId(0) + scalar offset] at line 20"),
        SettledChecks.explanation(launch(shifted, Grid.of(n, 1), in, out, 6)), "what -Dkiln.explainChecks logs");
    assertFalse(settles(shifted, Grid.of(n, 1), in, out, -1));
    assertFalse(settles(shifted, Grid.of(n + 1, 1), in, out, 0), "the grid passes out's end");
    compare("shifted", n, random -> new Object[] {ints(random, n + 5), new int[n], 5},
        (device, args) -> SettledKernelsKernels.shifted(device, n, (int[]) args[0], (int[]) args[1], (int) args[2]));
    ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> SettledKernelsKernels.shifted(vulkan, n, in, out, 6));
    assertEquals("Index 1005 out of bounds for length 1005 of buffer 'in' in kernel dev.kiln.samples.launch.SettledKernels#shifted (line 20)",
        thrown.getMessage());
  }

  private static float[] floats(Random random, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextFloat() * 200f - 100f;
    }
    return values;
  }

  private static int[] ints(Random random, int n) {
    return random.ints(n).toArray();
  }

  /** Whether a launch of {@code spec} over {@code grid} with {@code args} settles its module's checks. */
  private static boolean settles(KernelSpec spec, Grid grid, Object... args) {
    return SettledChecks.hold(launch(spec, grid, args));
  }

  /** A launch of {@code spec} over {@code grid} with {@code args}. */
  private static Launch launch(KernelSpec spec, Grid grid, Object... args) {
    Launch launch = new Launch().start(spec);
    launch.grid(0, grid.x(), grid.y(), grid.z());
    for (int param = 0; param < args.length; param++) {
      launch.arg(param, args[param]);
    }
    return launch;
  }

  /** The kernel's spec, as its launcher holds it. */
  private static KernelSpec spec(Class<?> launcher, String field) {
    try {
      Field spec = launcher.getDeclaredField(field);
      spec.setAccessible(true);
      return (KernelSpec) spec.get(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
