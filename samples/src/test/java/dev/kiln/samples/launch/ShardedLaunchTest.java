package dev.kiln.samples.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.DeviceArray;
import dev.kiln.DeviceSet;
import dev.kiln.FloatArray;
import dev.kiln.ShardedArray;
import dev.kiln.samples.SaxpyKernels;
import dev.kiln.samples.StencilKernels;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.TestDevices;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Launches on sharded arrays ({@link ShardedArray}): the CPU backend twice, Vulkan with the CPU backend, and Vulkan
 * twice on one physical device. Each run must give, bit for bit, one device's run on whole arrays, at sizes that are
 * not multiples of the blocks; halos cross only after a launch wrote what a neighbour reads; what a layout cannot
 * serve is refused before anything runs.
 */
class ShardedLaunchTest {
  private static final int WIDTH = 67;
  private static final int HEIGHT = 301; // 20,167 points: 4.9 blocks of 4,096
  private static final int STEPS = 100;

  private static Device cpu;
  private static Device otherCpu;
  private static Device vulkan;
  private static Device otherVulkan;

  @BeforeAll
  static void openDevices() {
    cpu = Device.open("cpu");
    otherCpu = Device.open("cpu");
  }

  @AfterAll
  static void closeDevices() {
    for (Device device : new Device[] {cpu, otherCpu, vulkan, otherVulkan}) {
      if (device != null) {
        device.close();
      }
    }
  }

  private static Device vulkan() {
    if (vulkan == null) {
      vulkan = TestDevices.vulkan();
    }
    return vulkan;
  }

  /** The stencil iterated {@link #STEPS} times on one device, on whole arrays. */
  private static float[] relaxedAlone(Device device, float[] grid) {
    try (FloatArray u = device.upload(grid); FloatArray next = device.floats(grid.length)) {
      for (int step = 0; step < STEPS; step++) {
        StencilKernels.relax(device, grid.length, step % 2 == 0 ? u : next, step % 2 == 0 ? next : u, WIDTH);
      }
      return u.toArray();
    }
  }

  /** The same on arrays sharded across {@code devices}, a row of halo each side; checks the exchanges' count. */
  private static float[] relaxedSharded(List<Device> devices, float[] grid) {
    try (DeviceSet set = DeviceSet.of(devices);
        ShardedArray<float[]> u = ShardedArray.upload(set, grid, WIDTH);
        ShardedArray<float[]> next = ShardedArray.zeros(set, float[].class, grid.length, WIDTH)) {
      for (int step = 0; step < STEPS; step++) {
        StencilKernels.relax(set, grid.length, step % 2 == 0 ? u : next, step % 2 == 0 ? next : u, WIDTH);
      }
      // u is read fresh from its upload at step 0, then after each write: steps 2, 4, ... 98; next at 1, 3, ... 99
      assertEquals(STEPS / 2 - 1, u.halosExchanged(), "exchanges of u");
      assertEquals(STEPS / 2, next.halosExchanged(), "exchanges of next");
      return u.toArray();
    }
  }

  private static void assertStencilMatches(Device reference, List<Device> devices) {
    float[] grid = Bits.randomFloats(new Random(51), WIDTH * HEIGHT, 100f);
    Bits.assertSameBits("the stencil on " + devices, relaxedAlone(reference, grid), relaxedSharded(devices, grid));
  }

  @Test
  void aStencilIteratedOnTwoCpuDevicesGivesTheBitsOfOne() {
    assertStencilMatches(cpu, List.of(cpu, otherCpu));
    assertStencilMatches(cpu, List.of(cpu, otherCpu, cpu)); // three shards, one device twice
  }

  @Test
  void aStencilIteratedOnVulkanAndTheCpuBackendGivesTheBitsOfEither() {
    assertStencilMatches(vulkan(), List.of(vulkan(), cpu));
    assertStencilMatches(cpu, List.of(cpu, vulkan()));
  }

  @Test
  void aStencilIteratedOnTwoLogicalVulkanDevicesGivesTheBitsOfOne() {
    vulkan();
    if (otherVulkan == null) {
      otherVulkan = TestDevices.vulkan();
    }
    assertStencilMatches(vulkan(), List.of(vulkan(), otherVulkan));
  }

  @Test
  void slicedReplicatedAndStridedBuffersGiveTheBitsOfOneDevice() {
    for (List<Device> devices : List.of(List.of(cpu, otherCpu), List.of(cpu, otherCpu, otherCpu))) {
      for (int n : new int[] {1, 4095, 4097, 20_011}) {
        Random random = new Random(n);
        float[] x = Bits.randomFloats(random, n, 4f);
        float[] y = Bits.randomFloats(random, n, 4f);
        int[] keys = new int[n];
        float[] table = Bits.randomFloats(random, 257, 9f);
        for (int i = 0; i < n; i++) {
          keys[i] = random.nextInt(table.length);
        }
        float[] expectedY = y.clone();
        SaxpyKernels.saxpy(cpu, n, 1.5f, x, expectedY);
        float[] expectedOut = new float[n];
        ShardKernelsKernels.lookUp(cpu, n, keys, table, expectedOut);
        float[] expectedNeighbours = new float[n];
        SplitKernelsKernels.neighbours(cpu, n, expectedY, expectedNeighbours);
        try (DeviceSet set = DeviceSet.of(devices);
            ShardedArray<float[]> sx = ShardedArray.upload(set, x, 0);
            ShardedArray<float[]> sy = ShardedArray.upload(set, y, 1);
            ShardedArray<int[]> sk = ShardedArray.upload(set, keys, 0);
            ShardedArray<float[]> st = ShardedArray.replicate(set, table);
            ShardedArray<float[]> out = ShardedArray.zeros(set, float[].class, n, 0);
            ShardedArray<float[]> neighbours = ShardedArray.zeros(set, float[].class, n, 0)) {
          SaxpyKernels.saxpy(set, n, 1.5f, sx, sy);
          ShardKernelsKernels.lookUp(set, n, sk, st, out);
          SplitKernelsKernels.neighbours(set, n, sy, neighbours); // reads y a neighbour away: its halo, after saxpy
          String where = " at n = " + n + " on " + devices;
          Bits.assertSameBits("saxpy" + where, expectedY, sy.toArray());
          Bits.assertSameBits("lookUp" + where, expectedOut, out.toArray());
          Bits.assertSameBits("neighbours" + where, expectedNeighbours, neighbours.toArray());
          assertEquals(n > 4096 ? 1 : 0, sy.halosExchanged(), "y's halos cross once, after saxpy wrote it" + where);
        }
      }
    }
  }

  @Test
  void eachDeviceRunsTheIdsOfItsShards() {
    int n = 20_011; // 5 blocks: 2 and 3
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu);
        ShardedArray<float[]> x = ShardedArray.upload(set, new float[n], 0)) {
      assertEquals(List.of(0, 8192, 8192, n), List.of(x.first(0), x.end(0), x.first(1), x.end(1)));
      ShardKernelsKernels.scale(set, n, x, 2f);
      List<DeviceSet.Part> parts = set.lastSplit();
      assertEquals(List.of(cpu, otherCpu), parts.stream().map(DeviceSet.Part::device).toList());
      assertEquals(List.of(0, 8192, 8192, n),
          List.of(parts.get(0).first(), parts.get(0).end(), parts.get(1).first(), parts.get(1).end()));
    }
  }

  @Test
  void copiesMoveTheElementsBetweenSetsAndToOneDevice() {
    float[] values = Bits.randomFloats(new Random(7), 10_001, 5f);
    try (DeviceSet two = DeviceSet.of(cpu, otherCpu);
        DeviceSet three = DeviceSet.of(otherCpu, cpu, otherCpu);
        ShardedArray<float[]> sharded = ShardedArray.upload(two, values, 3);
        ShardedArray<float[]> moved = sharded.copyTo(three, 1024);
        DeviceArray<float[], ?> gathered = sharded.copyTo(cpu)) {
      Bits.assertSameBits("copied to three devices", values, moved.toArray());
      Bits.assertSameBits("gathered on one", values, gathered.toArray());
      assertEquals(3, moved.halo());
      assertEquals(List.of(0, 3072, 6144), List.of(moved.first(0), moved.first(1), moved.first(2)));
    }
  }

  @Test
  void aFaultNamesTheDeviceAndItsIdsAsOneDeviceThrowsIt() {
    int n = 5000;
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu);
        ShardedArray<float[]> in = ShardedArray.upload(set, new float[n], 1);
        ShardedArray<float[]> out = ShardedArray.zeros(set, float[].class, n, 0)) {
      ArrayIndexOutOfBoundsException fault = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> SplitKernelsKernels.shifted(set, n, in, out, 1));
      ArrayIndexOutOfBoundsException alone = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> SplitKernelsKernels.shifted(cpu, n, new float[n], new float[n], 1));
      assertTrue(fault.getMessage().startsWith(alone.getMessage()), fault.getMessage() + " / " + alone.getMessage());
      assertTrue(fault.getMessage().endsWith(" (on " + otherCpu + ", which ran ids 4096 to 4999 of a split launch)"),
          fault.getMessage());
    }
  }

  @Test
  void aHaloNarrowerThanTheReadsIsRefusedWithTheWidthItNeeds() {
    float[] grid = new float[WIDTH * HEIGHT];
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu);
        ShardedArray<float[]> u = ShardedArray.upload(set, grid, 1);
        ShardedArray<float[]> next = ShardedArray.zeros(set, float[].class, grid.length, 1)) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> StencilKernels.relax(set, grid.length, u, next, WIDTH));
      assertEquals("dev.kiln.samples.Stencil#relax: argument 'in' is read at Gpu.globalId(0) + d for d"
          + " from -67 to 67 in this launch, so device 0 (" + cpu + ", ids 0 to 8191) reads elements 0 to 8258,"
          + " beyond its shard and halo of 1 (0 to 8192). Fix: shard it with a halo of at least 67 elements",
          refused.getMessage());
    }
  }

  @Test
  void layoutsALaunchCannotServeAreRefusedBeforeAnythingRuns() {
    int n = 9000;
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu);
        DeviceSet other = DeviceSet.of(otherCpu, cpu);
        ShardedArray<int[]> keys = ShardedArray.upload(set, new int[n], 0);
        ShardedArray<float[]> table = ShardedArray.upload(set, new float[n], 0);
        ShardedArray<float[]> replicated = ShardedArray.replicate(set, new float[n]);
        ShardedArray<float[]> elsewhere = ShardedArray.zeros(other, float[].class, n, 0);
        ShardedArray<float[]> oddBlocks = ShardedArray.zeros(set, float[].class, n, 0, 1000);
        ShardedArray<float[]> out = ShardedArray.zeros(set, float[].class, n, 0)) {
      String kernel = "dev.kiln.samples.launch.ShardKernels#";
      assertEquals(kernel + "lookUp: argument 'table' is read anywhere (not only at Gpu.globalId(0) + d), so every"
              + " device needs all of it. Fix: pass a replicated array (ShardedArray.replicate)",
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.lookUp(set, n, keys, table, out))
              .getMessage());
      assertEquals(kernel + "scale: argument 'x' is replicated, and the kernel may write it; every device would write"
              + " its own copy. Fix: pass an array sharded by ShardedArray.upload or zeros",
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.scale(set, n, replicated, 2f))
              .getMessage());
      assertEquals(kernel + "scale: argument 'x' lives on " + other.devices() + ", and this launch runs on "
              + set.devices() + ". Fix: make the arrays of a launch on the set it runs on (copyTo(DeviceSet, block)"
              + " moves one)",
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.scale(set, n, elsewhere, 2f))
              .getMessage());
      assertEquals(kernel + "scale: argument 'x' has a shard starting at element 4000, and a device's ids must start"
              + " at a whole workgroup: a multiple of 512 ids, 512 elements. Fix: shard it in blocks of a multiple of 512"
              + " elements", // 128 invocations of 4 elements each, the kernel vectorized
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.scale(set, n, oddBlocks, 2f))
              .getMessage());
      assertEquals(kernel + "lookUp: argument 'out' has device 1's shard start at element 4000, where that device's"
              + " ids 4096.. need element 4096 (each id owns 1 element). Fix: shard the arrays of one launch alike: the"
              + " same length per id and the same block",
          assertThrows(IllegalArgumentException.class,
              () -> ShardKernelsKernels.lookUp(set, n, keys, replicated, oddBlocks)).getMessage());
      assertEquals("dev.kiln.samples.launch.SplitKernels#neighbours: one array is passed as 'in', which each device"
              + " reads beyond its own elements, and as 'out', which each device writes part of; split, the devices would"
              + " read each other's writes in an order no single device has. Fix: pass a copy as 'in', or run on one"
              + " device",
          assertThrows(IllegalArgumentException.class, () -> SplitKernelsKernels.neighbours(set, n, out, out))
              .getMessage());
      assertEquals(0, out.toArray()[0] + oddBlocks.toArray()[n - 1], "nothing ran");
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void argumentsALaunchCannotTakeAreRefused() throws ReflectiveOperationException {
    int n = 5000;
    String scale = "dev.kiln.samples.launch.ShardKernels#scale: ";
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu);
        ShardedArray<float[]> x = ShardedArray.upload(set, new float[n], 0);
        ShardedArray<int[]> ints = ShardedArray.upload(set, new int[n], 0)) {
      assertEquals(scale + "count must not be negative: -1",
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.scale(set, -1, x, 2f)).getMessage());
      assertEquals(scale + "argument 'x' must be a sharded array, got null",
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.scale(set, n, (ShardedArray<float[]>) null, 2f)).getMessage());
      ShardedArray<float[]> mistyped = (ShardedArray<float[]>) (ShardedArray<?>) ints;
      assertEquals(scale + "argument 'x' holds INT elements, not FLOAT. Fix: pass an array of the parameter's element type",
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.scale(set, n, mistyped, 2f))
              .getMessage());
      java.lang.reflect.Field spec = ShardKernelsKernels.class.getDeclaredField("SCALE");
      spec.setAccessible(true);
      assertEquals(scale.substring(0, scale.length() - 2) + " takes 2 arguments, got 1",
          assertThrows(IllegalArgumentException.class,
              () -> dev.kiln.internal.Dispatch.runSharded(set, (dev.kiln.abi.KernelSpec) spec.get(null), n, x))
              .getMessage());
    }
  }

  @Test
  void aLaunchOfReplicatedArraysAloneIsRefused() {
    int n = 5000;
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu);
        ShardedArray<float[]> a = ShardedArray.replicate(set, new float[n])) {
      assertEquals("dev.kiln.samples.launch.ShardKernels#touch: every array of this launch is replicated, so nothing"
              + " says which device runs which ids. Fix: shard the array the kernel writes (ShardedArray.upload or zeros),"
              + " or run on one device",
          assertThrows(IllegalArgumentException.class, () -> ShardKernelsKernels.touch(set, n, a)).getMessage());
    }
  }

  @Test
  void arraysAreRefusedAShapeTheyCannotHave() {
    try (DeviceSet set = DeviceSet.of(cpu, otherCpu);
        ShardedArray<float[]> x = ShardedArray.zeros(set, float[].class, 10, 1);
        ShardedArray<float[]> replicated = ShardedArray.replicate(set, new float[10])) {
      assertEquals("length 10, halo -1, block 4096: none may be negative, and a block holds at least one element",
          assertThrows(IllegalArgumentException.class, () -> ShardedArray.zeros(set, float[].class, 10, -1))
              .getMessage());
      assertEquals("String is not an array type a kernel takes (float[], int[], ...)",
          assertThrows(IllegalArgumentException.class, () -> ShardedArray.zeros(set, String.class, 10, 0))
              .getMessage());
      assertEquals("Java array has 3 elements, sharded array 10",
          assertThrows(IllegalArgumentException.class, () -> x.upload(new float[3])).getMessage());
      assertEquals("Java array has 3 elements, sharded array 10",
          assertThrows(IllegalArgumentException.class, () -> x.download(new float[3])).getMessage());
      assertEquals("a replicated array is written only by upload: every device holds all of it",
          assertThrows(IllegalStateException.class, replicated::markWritten).getMessage());
    }
  }

  @Test
  void closedArraysDevicesAndSetsAreRefused() {
    int n = 5000;
    Device closing = Device.open("cpu");
    DeviceSet set = DeviceSet.of(cpu, closing);
    ShardedArray<float[]> x = ShardedArray.upload(set, new float[n], 0);
    closing.close();
    IllegalStateException closedDevice = assertThrows(IllegalStateException.class,
        () -> ShardKernelsKernels.scale(set, n, x, 2f));
    assertTrue(closedDevice.getMessage().contains("is closed"), closedDevice.getMessage());
    x.close();
    assertEquals("this sharded array of length 5000 is closed",
        assertThrows(IllegalStateException.class, () -> ShardKernelsKernels.scale(set, n, x, 2f)).getMessage());
    set.close();
    assertEquals("this device set is closed",
        assertThrows(IllegalStateException.class, () -> ShardKernelsKernels.scale(set, n, x, 2f)).getMessage());
  }
}
