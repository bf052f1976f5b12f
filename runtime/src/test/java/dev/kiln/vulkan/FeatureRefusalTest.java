package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.SplitForm;
import java.lang.invoke.MethodHandles;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A kernel that needs a device feature the device lacks is refused before its pipeline is made,
 * naming kernel, feature and device, in the words of the feature's row; one whose features are
 * there passes.
 */
class FeatureRefusalTest {
  private static final KernelSpec SPEC =
      new KernelSpec(
          MethodHandles.lookup(),
          FeatureRefusalTest.class,
          "update",
          "no-such-module.spv",
          new int[] {64, 1, 1},
          List.of(),
          args -> {});

  private static PhysicalDevice device(Set<DeviceFeature> features) {
    return device("Test GPU", 32, features);
  }

  private static PhysicalDevice device(String name, int subgroupSize, Set<DeviceFeature> features) {
    PhysicalDevice.Limits limits =
        new PhysicalDevice.Limits(
            new int[] {1024, 1024, 64},
            1024,
            new int[] {65535, 65535, 65535},
            1L << 30,
            128,
            49152,
            subgroupSize,
            0xf);
    return new PhysicalDevice(
        null,
        name,
        0,
        0,
        64,
        1f,
        1L << 30,
        0,
        0,
        0,
        0,
        new byte[16],
        limits,
        new PhysicalDevice.FloatControls(true, true, true, false, false, false),
        false,
        false,
        features);
  }

  private static KernelDescription needing(Set<DeviceFeature> features, long sharedBytes) {
    return new KernelDescription(
        features,
        1,
        false,
        sharedBytes,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        SplitForm.UNKNOWN);
  }

  private static Set<DeviceFeature> allBut(DeviceFeature missing) {
    Set<DeviceFeature> features = EnumSet.allOf(DeviceFeature.class);
    features.remove(missing);
    return features;
  }

  @ParameterizedTest
  @EnumSource(DeviceFeature.class)
  void eachFeatureIsRefusedInItsRowsWordsWhereTheDeviceLacksIt(DeviceFeature feature) {
    KernelDescription kernel = needing(Set.of(feature), 0);
    IllegalStateException refused =
        assertThrows(
            IllegalStateException.class, () -> device(allBut(feature)).checkSupports(SPEC, kernel));
    assertEquals(feature.refusal(SPEC, "Test GPU"), refused.getMessage());
    assertDoesNotThrow(() -> device(Set.of(feature)).checkSupports(SPEC, kernel));
  }

  /** Two rows' full texts: a feature of an extension, and one of Vulkan 1.1's core. */
  @Test
  void aRefusalNamesKernelUseFieldsExtensionAndDevice() {
    assertEquals(
        "dev.kiln.vulkan.FeatureRefusalTest#update adds to a Gpu.sharedFloats array atomically, which needs"
            + " shaderSharedFloat32AtomicAdd (VK_EXT_shader_atomic_float); Test GPU lacks it",
        assertThrows(
                IllegalStateException.class,
                () ->
                    device(allBut(DeviceFeature.FLOAT_ADDS_ON_WORKGROUP))
                        .checkSupports(
                            SPEC, needing(Set.of(DeviceFeature.FLOAT_ADDS_ON_WORKGROUP), 0)))
            .getMessage());
    assertEquals(
        "dev.kiln.vulkan.FeatureRefusalTest#update has a short[] or char[] buffer, which needs"
            + " storageBuffer16BitAccess; Test GPU lacks it",
        assertThrows(
                IllegalStateException.class,
                () ->
                    device(Set.of())
                        .checkSupports(SPEC, needing(Set.of(DeviceFeature.STORAGE_16BIT), 0)))
            .getMessage());
  }

  @Test
  void workgroupMemoryPastTheLimitIsRefused() {
    assertEquals(
        "dev.kiln.vulkan.FeatureRefusalTest#update: 49153 bytes of workgroup memory exceed Test GPU's limit"
            + " maxComputeSharedMemorySize = 49152",
        assertThrows(
                IllegalArgumentException.class,
                () -> device(Set.of()).checkSupports(SPEC, needing(Set.of(), 49153)))
            .getMessage());
    assertDoesNotThrow(() -> device(Set.of()).checkSupports(SPEC, needing(Set.of(), 49152)));
  }

  /**
   * A lavapipe whose subgroups are narrower than the loop counters assume is refused, not
   * miscounted.
   */
  @Test
  void loopCountersNeedSubgroupsOfFour() {
    KernelDescription plain = needing(Set.of(), 0);
    assertEquals(
        "llvmpipe (narrow) ends loops early and has subgroups of 2 lanes; Kiln's modules count loop turns"
            + " for subgroups of 4 lanes or more, so "
            + SPEC
            + " cannot run there",
        assertThrows(
                IllegalStateException.class,
                () -> device("llvmpipe (narrow)", 2, Set.of()).checkSupports(SPEC, plain))
            .getMessage());
    assertDoesNotThrow(() -> device("llvmpipe (narrow)", 4, Set.of()).checkSupports(SPEC, plain));
  }

  @Test
  void aMissingModuleIsNamedWithItsKernel() {
    IllegalStateException missing =
        assertThrows(IllegalStateException.class, () -> ComputePipeline.code(SPEC));
    assertEquals(
        "SPIR-V module 'no-such-module.spv' of kernel dev.kiln.vulkan.FeatureRefusalTest#update is not among"
            + " the resources beside dev.kiln.vulkan.FeatureRefusalTest; was the class compiled with the Kiln processor on"
            + " the processor path?",
        missing.getMessage());
  }
}
