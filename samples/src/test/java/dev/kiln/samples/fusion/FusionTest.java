package dev.kiln.samples.fusion;

import dev.kiln.samples.launch.RowMajorKernels;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.FusionKernels;
import dev.kiln.Batch;
import dev.kiln.FloatArray;
import dev.kiln.Grid;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The oracle of fusion: each group of the corpus, run fused in one dispatch on Vulkan, gives bit for
 * bit what its arms give run one after another as Java on the CPU backend, for random inputs, sizes
 * that are not multiples of the workgroup size, and per-arm counts that differ.
 */
class FusionTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 257, 10_007})
  void post(int n) {
    compare("post", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), 1.5f, -4f, 4f},
        (d, a) -> FusionKernels.post(d, n, (float[]) a[0], (float) a[1], (float) a[2], (float) a[3]));
    compare("post with counts", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), 1.5f, -4f, 4f},
        (d, a) -> FusionKernels.post(d, n / 2, n, (float[]) a[0], (float) a[1], (float) a[2], (float) a[3]));
  }

  @ParameterizedTest(name = "{0} × {1}")
  @CsvSource({"1, 1", "17, 5", "100, 33", "31, 64"})
  void rowMajorPixelsFuseWithoutABarrier(int cols, int rows) {
    int n = cols * rows;
    compare("pixels", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), Bits.randomFloats(r, n, 10f), new int[n]},
        (d, a) -> FusionKernels.pixels(d, Grid.of(cols, rows), rows, cols, (float[]) a[0], (float[]) a[1], 1.5f,
            (int[]) a[2], 4f));
    compare("pixels with arm grids", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), Bits.randomFloats(r, n, 10f),
        new int[n]}, (d, a) -> FusionKernels.pixels(d, Grid.of(cols, rows), Grid.of(cols, rows / 2 + 1), rows, cols,
            (float[]) a[0], (float[]) a[1], 1.5f, (int[]) a[2], 4f));
  }

  @ParameterizedTest(name = "{0} points × {1} features")
  @CsvSource({"1, 1", "65, 3", "1000, 7"})
  void strideColumnsWalkedByLoopCountersFuse(int points, int features) {
    int n = points * features;
    compare("columns", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), new float[n], new float[points]},
        (d, a) -> FusionKernels.columns(d, points, points, features, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
  }

  /**
   * The proofs that fused 'pixels' and that found gemm's updates race-free hold for grids one layer
   * deep whose width in columns times height stays within 2^32 ({@code row * cols + col} then wraps
   * onto no other pixel), and the one that fused 'columns' where points × features does; a launch
   * past them is refused before it runs, on every device.
   */
  @Test
  void aLaunchPastTheBoundsOfTheRowMajorProofsIsRefused() {
    for (dev.kiln.Device device : vulkan == null ? List.of(cpu) : List.of(cpu, vulkan)) {
      IllegalArgumentException deep = assertThrows(IllegalArgumentException.class, () -> FusionKernels.pixels(device,
          Grid.of(4, 4, 2), 4, 4, new float[16], new float[16], 1f, new int[16], 0f));
      assertEquals("corpus.Fusion#pixels: this launch breaks grid depth ≤ 1 (here 2); Kiln needs it to prove that"
          + " lit's elements on lines 207 and 217 (and any others of the same bound) are each invocation's own, so"
          + " that group pixels fuses, and past it indices wrap or other invocations reach the same elements. Fix:"
          + " launch a grid that keeps the bound, or split the work into launches that do", deep.getMessage());
      IllegalArgumentException wrapping = assertThrows(IllegalArgumentException.class, () -> FusionKernels.pixels(
          device, Grid.of(1, 1 << 12), 1 << 12, 1 << 21, new float[16], new float[16], 1f, new int[16], 0f));
      assertTrue(wrapping.getMessage().contains("1 × cols × grid height ≤ 4294967296 (here 1 × 2097152 × 4096)"),
          wrapping.getMessage());
      IllegalArgumentException column = assertThrows(IllegalArgumentException.class, () -> FusionKernels.columns(
          device, 4, 1 << 17, 1 << 16, new float[4], new float[4], new float[4]));
      assertTrue(column.getMessage().contains("1 × points × features ≤ 4294967296 (here 1 × 131072 × 65536)"),
          column.getMessage());
      IllegalArgumentException racing = assertThrows(IllegalArgumentException.class, () -> RowMajorKernels.gemm(device,
          Grid.of(2, 2, 3), 2, 2, 1, new float[4], new float[4], new float[4], 1f));
      assertTrue(racing.getMessage().contains("the update of c on line"), racing.getMessage());
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 5_003})
  void oneKernelTwice(int n) {
    compare("twice", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), 0.25f, -1f, 1f},
        (d, a) -> FusionKernels.twice(d, n, n - n / 3, n / 2, (float[]) a[0], (float) a[1], (float) a[2],
            (float) a[3]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {2, 129, 3_001})
  void returnEndsItsArmOnly(int n) {
    compare("lanes", n, r -> new Object[] {Bits.randomFloats(r, n, 3f), Bits.randomFloats(r, n, 3f), new int[n]},
        (d, a) -> FusionKernels.lanes(d, n, (float[]) a[0], (float[]) a[1], (int[]) a[2]));
    float[] y = new float[n];
    int[] marks = new int[n];
    FusionKernels.lanes(vulkan, n, new float[n], y, marks);
    assertEquals(n, Arrays.stream(marks).sum(), "every invocation ran the second arm");
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 64, 100, 4_097})
  void workgroupBarrierOrdersALoopOverTheTile(int n) {
    compare("tiles", n, r -> new Object[] {new float[n], Bits.randomFloats(r, n, 10f), new float[n]},
        (d, a) -> FusionKernels.tiles(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
    compare("tiles with counts", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), Bits.randomFloats(r, n, 10f),
        new float[n]}, (d, a) -> FusionKernels.tiles(d, n / 2, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 64, 100, 4_097})
  void workgroupBarrierOrdersTheMirror(int n) {
    compare("mirror", n, r -> new Object[] {new int[n], r.nextInt(1000), Bits.randomInts(r, n)},
        (d, a) -> FusionKernels.mirror(d, n, (int[]) a[0], (int) a[1], (int[]) a[2]));
    compare("mirror with counts", n, r -> new Object[] {new int[n], r.nextInt(1000), Bits.randomInts(r, n)},
        (d, a) -> FusionKernels.mirror(d, n / 2, n, (int[]) a[0], (int) a[1], (int[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 1_000})
  void workgroupScanBehindItsOwnWidth(int n) {
    compare("scan", n, r -> new Object[] {Bits.randomInts(r, n), new int[n], new int[n]},
        (d, a) -> FusionKernels.scan(d, n, (int[]) a[0], (int[]) a[1], (int[]) a[2]));
    compare("scan with counts", n, r -> new Object[] {Bits.randomInts(r, n), new int[n], new int[n]},
        (d, a) -> FusionKernels.scan(d, n, n / 3, (int[]) a[0], (int[]) a[1], (int[]) a[2]));
  }

  @ParameterizedTest(name = "rows = {0}")
  @ValueSource(ints = {1, 65, 300})
  void oneAndTwoDimensionalArms(int rows) {
    int width = 7;
    compare("wide on one grid", rows, r -> new Object[] {Bits.randomFloats(r, rows * width, 2f), new float[rows], width, new int[rows]},
        (d, a) -> FusionKernels.wide(d, Grid.of(rows, 1), (float[]) a[0], (float[]) a[1], (int) a[2], (int[]) a[3]));
    compare("wide on grids", rows, r -> new Object[] {Bits.randomFloats(r, rows * width, 2f), new float[rows], width,
            new int[rows]},
        (d, a) -> FusionKernels.wide(d, Grid.of(rows, 1), Grid.of(rows, 3), (float[]) a[0], (float[]) a[1], (int) a[2],
            (int[]) a[3]));
  }

  /**
   * Groups of more than one tile (32,768 invocations) run on the CPU backend fused or tiled, arm by
   * arm (GroupForm runs a group's first four launches fused, then times both over ten, alternating,
   * and keeps the faster): each launch, of either form, gives what the arms give one after another.
   */
  @Test
  void largeGroupsGiveTheSameBitsInEitherCpuForm() {
    int n = 100_003;
    for (int launch = 0; launch < 12; launch++) {
      compare("post, launch " + launch, n, r -> new Object[] {Bits.randomFloats(r, n, 10f), 1.5f, -4f, 4f},
          (d, a) -> FusionKernels.post(d, n, (float[]) a[0], (float) a[1], (float) a[2], (float) a[3]));
      compare("twice, launch " + launch, n, r -> new Object[] {Bits.randomFloats(r, n, 10f), 0.25f, -1f, 1f},
          (d, a) -> FusionKernels.twice(d, n, n - n / 3, n / 2, (float[]) a[0], (float) a[1], (float) a[2],
              (float) a[3]));
      compare("lanes, launch " + launch, n, r -> new Object[] {Bits.randomFloats(r, n, 3f), Bits.randomFloats(r, n, 3f),
          new int[n]}, (d, a) -> FusionKernels.lanes(d, n, (float[]) a[0], (float[]) a[1], (int[]) a[2]));
      int rows = 40_000;
      compare("wide on grids, launch " + launch, rows, r -> new Object[] {Bits.randomFloats(r, rows * 7, 2f),
          new float[rows], 7, new int[rows]},
          (d, a) -> FusionKernels.wide(d, Grid.of(rows, 1), Grid.of(rows, 3), (float[]) a[0], (float[]) a[1], (int) a[2],
              (int[]) a[3]));
      float[] values = Bits.randomFloats(new Random(launch), n, 4f);
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> FusionKernels.faulty(cpu, n, values, new float[n], 5));
      assertTrue(thrown.getMessage().contains("Fusion#faulty"), thrown.getMessage());
    }
  }

  @Test
  void groupOfOneArm() {
    int n = 1_001;
    compare("solo", n, r -> new Object[] {Bits.randomFloats(r, n, 5f)},
        (d, a) -> FusionKernels.solo(d, n, (float[]) a[0]));
  }

  @Test
  void groupsRecordIntoBatchesOnDeviceArrays() {
    int n = 3_333;
    float[] data = Bits.randomFloats(new Random(7), n, 10f);
    float[] expected = data.clone();
    FusionKernels.post(cpu, n, expected, 2f, -5f, 5f);
    FusionKernels.solo(cpu, n, expected);
    try (FloatArray onDevice = vulkan.upload(data); Batch batch = vulkan.batch()) {
      FusionKernels.post(batch, n, onDevice, 2f, -5f, 5f);
      FusionKernels.solo(batch, n, onDevice);
      batch.submitAsync().join();
      float[] actual = new float[n];
      onDevice.download(actual);
      Bits.assertSameBits("post then solo in a batch", expected, actual);
    }
  }

  @Test
  void aFaultInAFusedArmThrowsAsJavaDoesAfterTheEarlierArm() {
    int n = 777;
    float[] values = Bits.randomFloats(new Random(3), n, 4f);
    float[] onCpu = values.clone();
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> FusionKernels.faulty(cpu, n, onCpu, new float[n], 5));
    try (FloatArray onVulkan = vulkan.upload(values); FloatArray spilled = vulkan.floats(n)) {
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> FusionKernels.faulty(vulkan, n, onVulkan, spilled, 5));
      String message = thrown.getMessage();
      assertTrue(message.contains("Fusion#faulty") && message.contains("buffer 'out'"), message);
      int index = Integer.parseInt(message.replaceAll("^Index (-?\\d+) .*", "$1"));
      assertTrue(index >= n && index < n + 5, message);
      Bits.assertSameBits("the first arm ran everywhere", onCpu, onVulkan.toArray());
    }
    float[] out = new float[n];
    FusionKernels.faulty(vulkan, n, n - 5, values.clone(), out, 5);
    assertEquals(n - 5, (int) java.util.stream.IntStream.range(0, n).filter(i -> out[i] == 1f).count());
  }
}
