package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.KernelModule;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A kernel that needs a device feature the device lacks is refused before its pipeline is made,
 * naming kernel, feature and device; one whose features are there passes.
 */
class FeatureRefusalTest {
  private static final KernelSpec SPEC =
      new KernelSpec(MethodHandles.lookup(), FeatureRefusalTest.class, "update", "no-such-module.spv", new int[] {64, 1, 1}, List.of(), args -> {});

  /** Basic, vote, arithmetic and ballot subgroup operations: the bits VK_SUBGROUP_FEATURE_*. */
  private static final int SUBGROUP_OPERATIONS = 0x1 | 0x2 | 0x4 | 0x8;

  private static PhysicalDevice device(PhysicalDevice.Features features) {
    return device(features, SUBGROUP_OPERATIONS);
  }

  private static PhysicalDevice device(PhysicalDevice.Features features, int subgroupOperations) {
    PhysicalDevice.Limits limits = new PhysicalDevice.Limits(new int[] {1024, 1024, 64}, 1024,
        new int[] {65535, 65535, 65535}, 1L << 30, 128, 49152, 32, subgroupOperations);
    return new PhysicalDevice(null, "Test GPU", 0, 0, 64, 1f, 1L << 30, 0, 0, 0, 0, new byte[16], limits, true, true,
        new PhysicalDevice.FloatControls(true, true, true, false, false), false, false, features);
  }

  private static KernelModule module(Set<Integer> capabilities, boolean floatAddsOnBuffers, boolean floatAddsOnWorkgroup) {
    return module(capabilities, new KernelModule.AtomicPlaces(floatAddsOnBuffers, floatAddsOnWorkgroup),
        new KernelModule.AtomicPlaces(false, false));
  }

  private static KernelModule module(Set<Integer> capabilities, KernelModule.AtomicPlaces floatAdds,
      KernelModule.AtomicPlaces longUpdates) {
    return new KernelModule(new byte[0], capabilities, false, 0, 1, floatAdds, longUpdates, false, java.util.List.of(),
        java.util.List.of(), dev.kiln.abi.SplitForm.UNKNOWN, java.util.List.of());
  }

  private static String refusal(PhysicalDevice device, KernelModule module) {
    return assertThrows(IllegalStateException.class, () -> device.checkSupports(SPEC, module)).getMessage();
  }

  @Test
  void longAtomicsNeedTheFeatureOfTheirMemory() {
    KernelModule.AtomicPlaces none = new KernelModule.AtomicPlaces(false, false);
    KernelModule onBuffers = module(Set.of(SpvCapabilityInt64, SpvCapabilityInt64Atomics), none,
        new KernelModule.AtomicPlaces(true, false));
    KernelModule onWorkgroup = module(Set.of(SpvCapabilityInt64, SpvCapabilityInt64Atomics), none,
        new KernelModule.AtomicPlaces(false, true));
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update updates a long[] buffer atomically, which needs"
            + " shaderBufferInt64Atomics (VK_KHR_shader_atomic_int64); Test GPU lacks it",
        refusal(device(new PhysicalDevice.Features(false, true, true, true, true, true, true, false, false, false, false, true, false, false)), onBuffers));
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update updates a Gpu.sharedLongs array atomically, which needs"
            + " shaderSharedInt64Atomics (VK_KHR_shader_atomic_int64); Test GPU lacks it",
        refusal(device(new PhysicalDevice.Features(true, false, true, true, true, true, true, false, false, false, false, true, false, false)), onWorkgroup));
    assertDoesNotThrow(() -> device(new PhysicalDevice.Features(true, false, false, false, true, true, true, false, false, false, false, true, false, false))
        .checkSupports(SPEC, onBuffers));
    assertDoesNotThrow(() -> device(new PhysicalDevice.Features(false, true, false, false, true, true, true, false, false, false, false, true, false, false))
        .checkSupports(SPEC, onWorkgroup));
  }

  @Test
  void subgroupOperationsOnLongsNeedShaderSubgroupExtendedTypes() {
    KernelModule.AtomicPlaces none = new KernelModule.AtomicPlaces(false, false);
    KernelModule longs = new KernelModule(new byte[0], Set.of(SpvCapabilityInt64), false, 0, 1, none, none, true,
        java.util.List.of(), java.util.List.of(), dev.kiln.abi.SplitForm.UNKNOWN, java.util.List.of());
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update applies a subgroup operation to longs, which needs"
            + " shaderSubgroupExtendedTypes (VK_KHR_shader_subgroup_extended_types); Test GPU lacks it",
        refusal(device(new PhysicalDevice.Features(true, true, true, true, true, true, false, false, false, false, false, true, false, false)), longs));
    assertDoesNotThrow(() -> device(new PhysicalDevice.Features(true, true, true, true, true, true, true, false, false, false, false, true, false, false))
        .checkSupports(SPEC, longs));
  }

  @Test
  void subgroupOperationsNeedTheDeviceToOfferThem() {
    KernelModule.AtomicPlaces none = new KernelModule.AtomicPlaces(false, false);
    KernelModule votes = new KernelModule(new byte[0], Set.of(SpvCapabilityGroupNonUniform,
        SpvCapabilityGroupNonUniformVote), false, 0, 1, none, none, false, java.util.List.of(),
        java.util.List.of(), dev.kiln.abi.SplitForm.UNKNOWN, java.util.List.of());
    PhysicalDevice.Features all = new PhysicalDevice.Features(true, true, true, true, true, true, true, false, false, false, false, true, false, false);
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update uses subgroup votes (any, all), which Test GPU does not"
            + " offer to compute shaders (VkPhysicalDeviceSubgroupProperties.supportedOperations)",
        refusal(device(all, 0x1 | 0x4 | 0x8), votes));
    assertDoesNotThrow(() -> device(all, 0x1 | 0x2).checkSupports(SPEC, votes));
  }

  @Test
  void floatAddsNeedTheFeatureOfTheirMemory() {
    KernelModule onBuffers = module(Set.of(), true, false);
    KernelModule onWorkgroup = module(Set.of(), false, true);
    PhysicalDevice workgroupOnly = device(new PhysicalDevice.Features(true, true, false, true, true, true, true, false, false, false, false, true, false, false));
    PhysicalDevice buffersOnly = device(new PhysicalDevice.Features(true, true, true, false, true, true, true, false, false, false, false, true, false, false));
    String buffers = refusal(workgroupOnly, onBuffers);
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update adds to a float[] buffer atomically, which needs"
        + " shaderBufferFloat32AtomicAdd (VK_EXT_shader_atomic_float); Test GPU lacks it", buffers);
    String workgroup = refusal(buffersOnly, onWorkgroup);
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update adds to a Gpu.sharedFloats array atomically, which needs"
        + " shaderSharedFloat32AtomicAdd (VK_EXT_shader_atomic_float); Test GPU lacks it", workgroup);
    assertDoesNotThrow(() -> workgroupOnly.checkSupports(SPEC, onWorkgroup));
    assertDoesNotThrow(() -> buffersOnly.checkSupports(SPEC, onBuffers));
  }

  @Test
  void narrowBuffersNeedTheirStorageFeature() {
    KernelModule bytes = module(Set.of(SpvCapabilityStorageBuffer8BitAccess), false, false);
    KernelModule chars = module(Set.of(SpvCapabilityStorageBuffer16BitAccess), false, false);
    PhysicalDevice without8 = device(new PhysicalDevice.Features(true, true, true, true, false, true, true, false, false, false, false, true, false, false));
    PhysicalDevice without16 = device(new PhysicalDevice.Features(true, true, true, true, true, false, true, false, false, false, false, true, false, false));
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update has a byte[] or boolean[] buffer, which needs"
        + " storageBuffer8BitAccess (VK_KHR_8bit_storage); Test GPU lacks it", refusal(without8, bytes));
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update has a short[] or char[] buffer, which needs"
        + " storageBuffer16BitAccess; Test GPU lacks it", refusal(without16, chars));
    assertDoesNotThrow(() -> without16.checkSupports(SPEC, bytes));
    assertDoesNotThrow(() -> without8.checkSupports(SPEC, chars));
  }

  /** Cooperative matrices: the extension, the 16 x 16 x 16 float16 shape and shaderFloat16, each named. */
  @Test
  void cooperativeMatricesNeedTheExtensionTheShapeAndFloat16() {
    KernelModule matrices = module(Set.of(SpvCapabilityCooperativeMatrixKHR, SpvCapabilityFloat16), false, false);
    String kernel = "dev.kiln.vulkan.FeatureRefusalTest#update";
    assertEquals(kernel + " uses cooperative matrices, which need VK_KHR_cooperative_matrix (cooperativeMatrix);"
        + " Test GPU lacks it", refusal(device(features(true, false, false, false)), matrices));
    assertEquals(kernel + " multiplies 16 x 16 x 16 cooperative matrices of float16 into floats, a shape Test GPU"
        + " does not list (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)",
        refusal(device(features(true, true, false, false)), matrices));
    assertEquals(kernel + " holds float16 matrices, which need shaderFloat16 (VK_KHR_shader_float16_int8); Test GPU"
        + " lacks it", refusal(device(features(false, true, true, false)), matrices));
    assertDoesNotThrow(() -> device(features(true, true, true, false)).checkSupports(SPEC, matrices));
  }

  /** bfloat16 matrices need VK_KHR_shader_bfloat16's two features and the shape, named together. */
  @Test
  void bfloat16MatricesNeedTheirExtensionAndShape() {
    KernelModule bfloats = module(Set.of(SpvCapabilityCooperativeMatrixKHR, SpvCapabilityBFloat16TypeKHR,
        SpvCapabilityBFloat16CooperativeMatrixKHR), false, false);
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update multiplies 16 x 16 x 16 cooperative matrices of bfloat16"
        + " into floats, which need VK_KHR_shader_bfloat16 (shaderBFloat16Type, shaderBFloat16CooperativeMatrix) and"
        + " the shape in vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR; Test GPU lacks them",
        refusal(device(features(true, true, true, true)), bfloats));
    PhysicalDevice.Features withBfloat16 = new PhysicalDevice.Features(true, true, true, true, true, true, true, true,
        true, true, true, true, true, false);
    assertDoesNotThrow(() -> device(withBfloat16).checkSupports(SPEC, bfloats));
  }

  /** Matrices loaded through tensor layouts (VK_NV_cooperative_matrix2, the workgroup-scope GLSL twin's) need it. */
  @Test
  void tensorAddressingNeedsCooperativeMatrix2() {
    KernelModule tensors = module(Set.of(SpvCapabilityCooperativeMatrixKHR, SpvCapabilityCooperativeMatrixTensorAddressingNV,
        SpvCapabilityTensorAddressingNV), false, false);
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update loads or stores cooperative matrices through tensor layouts,"
        + " which need VK_NV_cooperative_matrix2 (cooperativeMatrixWorkgroupScope, cooperativeMatrixFlexibleDimensions,"
        + " cooperativeMatrixTensorAddressing); Test GPU lacks it",
        refusal(device(features(true, true, true, true)), tensors));
    PhysicalDevice.Features withTensors = new PhysicalDevice.Features(true, true, true, true, true, true, true, true,
        true, true, true, true, false, true);
    assertDoesNotThrow(() -> device(withTensors).checkSupports(SPEC, tensors));
  }

  /** A module of the Vulkan memory model (the cooperative-matrix GLSL twin's) needs vulkanMemoryModel. */
  @Test
  void theVulkanMemoryModelNeedsItsFeature() {
    KernelModule model = module(Set.of(SpvCapabilityVulkanMemoryModel), false, false);
    assertEquals("dev.kiln.vulkan.FeatureRefusalTest#update is written for the Vulkan memory model, which needs"
        + " vulkanMemoryModel (VK_KHR_vulkan_memory_model); Test GPU lacks it",
        refusal(device(features(true, true, true, false)), model));
    assertDoesNotThrow(() -> device(features(true, true, true, true)).checkSupports(SPEC, model));
  }

  /** Every feature of the earlier tests, and these four as given. */
  private static PhysicalDevice.Features features(boolean float16, boolean cooperativeMatrix, boolean shape,
      boolean memoryModel) {
    return new PhysicalDevice.Features(true, true, true, true, true, true, true, float16, cooperativeMatrix, shape,
        memoryModel, true, false, false);
  }

  /** A lavapipe whose subgroups are narrower than the loop counters assume is refused, not miscounted. */
  @Test
  void loopCountersNeedSubgroupsOfFour() {
    KernelModule plain = module(Set.of(), false, false);
    assertEquals("llvmpipe (narrow) ends loops early and has subgroups of 2 lanes; Kiln's modules count loop turns"
        + " for subgroups of 4 lanes or more, so " + SPEC + " cannot run there",
        refusal(lavapipe(2), plain));
    assertDoesNotThrow(() -> lavapipe(4).checkSupports(SPEC, plain));
  }

  private static PhysicalDevice lavapipe(int subgroupSize) {
    PhysicalDevice.Limits limits = new PhysicalDevice.Limits(new int[] {1024, 1024, 64}, 1024,
        new int[] {65535, 65535, 65535}, 1L << 30, 128, 49152, subgroupSize, SUBGROUP_OPERATIONS);
    return new PhysicalDevice(null, "llvmpipe (narrow)", 0, 0, 64, 1f, 1L << 30, 0, 0, 0, 0, new byte[16], limits, true,
        true, new PhysicalDevice.FloatControls(true, true, true, false, false), false, false, features(true, true, true, true));
  }

  /** Workgroup memory of 16-bit values (float16 bits) needs shaderInt16 and shaderFloat16. */
  @Test
  void packedShortsNeedInt16AndFloat16() {
    KernelModule packed = module(Set.of(SpvCapabilityInt16, SpvCapabilityFloat16), false, false);
    PhysicalDevice.Features withoutInt16 = new PhysicalDevice.Features(true, true, true, true, true, true, true, true,
        false, false, false, false, false, false);
    PhysicalDevice.Features withoutFloat16 = new PhysicalDevice.Features(true, true, true, true, true, true, true, false,
        false, false, false, true, false, false);
    String refused = "dev.kiln.vulkan.FeatureRefusalTest#update holds 16-bit values in workgroup memory"
        + " (Gpu.sharedPackedShorts, as float16 bits), which needs shaderInt16 and shaderFloat16"
        + " (VK_KHR_shader_float16_int8); Test GPU lacks ";
    assertEquals(refused + "shaderInt16", refusal(device(withoutInt16), packed));
    assertEquals(refused + "shaderFloat16", refusal(device(withoutFloat16), packed));
    assertDoesNotThrow(() -> device(features(true, false, false, false)).checkSupports(SPEC, packed));
  }
}
