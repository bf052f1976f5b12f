package dev.kiln.samples.semantics;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.TestDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.SubgroupsKernels;
import dev.kiln.Device;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CPU backend's subgroups of any size: its twins and the kernel methods give the same bits at
 * each size, and divergent control flow around subgroup operations is an exception, not a hang or
 * a guess. (Against a GPU's bits: {@code CorpusTest.subgroupLanes}, at the Vulkan device's size.)
 */
class SubgroupEmulationTest {
  @ParameterizedTest(name = "subgroups of {0}")
  @ValueSource(ints = {1, 4, 32, 128})
  void twinsAndMethodsAgreeAtEverySize(int size) {
    try (Device twins = TestDevices.cpu(size); Device methods = TestDevices.cpuMethods(size)) {
      for (int n : new int[] {1, 200, 1000}) {
        int[] values = Bits.randomInts(new Random(n), n);
        int whole = (n + 63) / 64 * 64;
        int[] onTwins = new int[8 * n];
        int[] onMethods = new int[8 * n];
        SubgroupsKernels.lanes(twins, whole, values, onTwins);
        SubgroupsKernels.lanes(methods, whole, values, onMethods);
        Bits.assertSameBits("lanes, n = " + n, onMethods, onTwins);
        int[] data = values.clone();
        int[] dataOnMethods = values.clone();
        int[] totals = new int[(n + 127) / 128];
        int[] totalsOnMethods = new int[totals.length];
        SubgroupShapesKernels.uniform(twins, n, data, totals, 3);
        SubgroupShapesKernels.uniform(methods, n, dataOnMethods, totalsOnMethods, 3);
        Bits.assertSameBits("uniform data, n = " + n, dataOnMethods, data);
        Bits.assertSameBits("uniform totals, n = " + n, totalsOnMethods, totals);
      }
    }
  }

  @Test
  void divergenceIsAnExceptionOnBothPaths() {
    String twinsRefuse = ": the lanes of a subgroup disagree on a condition around subgroup operations or barriers;"
        + " Kiln's CPU backend runs them in uniform control flow only, as the GPU's results would depend on how its"
        + " lanes reconverge";
    try (Device twins = TestDevices.cpu(32); Device methods = TestDevices.cpuMethods(32)) {
      assertEquals("dev.kiln.samples.semantics.SubgroupShapes#divergentBeforeBarrier" + twinsRefuse,
          assertThrows(IllegalStateException.class,
              () -> SubgroupShapesKernels.divergentBeforeBarrier(twins, 64, new int[64])).getMessage());
      assertEquals("lanes of a subgroup wait at a subgroup operation while others wait at a barrier: the kernel"
          + " methods run subgroup operations only in subgroup-uniform control flow",
          assertThrows(IllegalStateException.class,
              () -> SubgroupShapesKernels.divergentBeforeBarrier(methods, 64, new int[64])).getMessage());
      assertEquals("dev.kiln.samples.semantics.SubgroupShapes#divergentBranches" + twinsRefuse,
          assertThrows(IllegalStateException.class,
              () -> SubgroupShapesKernels.divergentBranches(twins, 64, new int[64])).getMessage());
      assertEquals("the lanes of a subgroup reached different subgroup operations (lane 31 operation 2, another 0;"
          + " dev.kiln.abi.SubgroupLanes numbers them): the kernel methods run them only in subgroup-uniform control"
          + " flow (the GPU's results would depend on how its lanes reconverge)",
          assertThrows(IllegalStateException.class,
              () -> SubgroupShapesKernels.divergentBranches(methods, 64, new int[64])).getMessage());
    }
  }

  @Test
  void partitionsNeedSubgroupsOfAtMost32Lanes() {
    String refusal = "partitioned subgroup operations name lanes by the bits of an int: the CPU backend runs them in"
        + " subgroups of up to 32 lanes, not 64";
    try (Device twins = TestDevices.cpu(64); Device methods = TestDevices.cpuMethods(64)) {
      for (Device device : new Device[] {twins, methods}) {
        assertEquals(refusal, assertThrows(IllegalArgumentException.class,
            () -> SubgroupsKernels.partitions(device, 64, new int[64], new int[64])).getMessage(), device.toString());
      }
    }
  }

  @Test
  void aSizeThatIsNoPowerOfTwoIsRefused() {
    assertEquals("-Dkiln.cpu.subgroupSize=48: the CPU backend's subgroup size must be a power of two from 1 to 128",
        assertThrows(IllegalArgumentException.class, () -> TestDevices.cpu(48)).getMessage());
  }

  @Test
  void theSizeIsADeviceProperty() {
    try (Device eight = TestDevices.cpu(8); Device standard = TestDevices.cpu()) {
      assertTrue(eight.subgroupSize() == 8 && standard.subgroupSize() == 32,
          eight.subgroupSize() + ", " + standard.subgroupSize());
    }
  }
}
