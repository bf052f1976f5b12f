package dev.kiln.vulkan;

import static org.lwjgl.vulkan.KHRCooperativeMatrix.*;
import static org.lwjgl.vulkan.KHRShaderBfloat16.VK_COMPONENT_TYPE_BFLOAT16_KHR;
import static org.lwjgl.vulkan.NVShaderSubgroupPartitioned.VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_BALLOT_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_BASIC_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_CLUSTERED_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_VOTE_BIT;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceFeatures2;

import dev.kiln.abi.DeviceFeature;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.system.Struct;
import org.lwjgl.vulkan.VkBaseOutStructure;
import org.lwjgl.vulkan.VkCooperativeMatrixPropertiesKHR;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDevice16BitStorageFeatures;
import org.lwjgl.vulkan.VkPhysicalDevice8BitStorageFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceCooperativeMatrix2FeaturesNV;
import org.lwjgl.vulkan.VkPhysicalDeviceCooperativeMatrixFeaturesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderAtomicFloatFeaturesEXT;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderAtomicInt64Features;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderBfloat16FeaturesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderFloat16Int8Features;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkanMemoryModelFeatures;

/**
 * How a Vulkan device answers for each {@link DeviceFeature}: which of them it offers (its feature
 * structures, subgroup operations and float controls, asked once) and how the device is created
 * with those it offers enabled. The extensions come from the features' rows.
 */
final class DeviceFeatures {
  private DeviceFeatures() {}

  /** Each subgroup feature's bit of VkPhysicalDeviceSubgroupProperties.supportedOperations. */
  private static int subgroupBit(DeviceFeature feature) {
    return switch (feature) {
      case SUBGROUPS -> VK_SUBGROUP_FEATURE_BASIC_BIT;
      case SUBGROUP_VOTES -> VK_SUBGROUP_FEATURE_VOTE_BIT;
      case SUBGROUP_ARITHMETIC -> VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
      case SUBGROUP_BALLOTS -> VK_SUBGROUP_FEATURE_BALLOT_BIT;
      case SUBGROUP_SHUFFLES -> VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
      case SUBGROUP_RELATIVE_SHUFFLES -> VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
      case SUBGROUP_CLUSTERS -> VK_SUBGROUP_FEATURE_CLUSTERED_BIT;
      case SUBGROUP_PARTITIONS -> VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV;
      default -> 0;
    };
  }

  /**
   * The features {@code device} offers.
   *
   * @param extensions the device's extensions
   * @param core its Vulkan 1.0 features
   * @param subgroupOperations the subgroup operations of its compute stage
   * @param preserved32 whether it keeps signed zeros, infinities and NaNs of floats (float
   *     controls)
   * @param preserved64 whether it does for doubles
   */
  static Set<DeviceFeature> offered(
      MemoryStack stack,
      VkPhysicalDevice device,
      List<String> extensions,
      VkPhysicalDeviceFeatures core,
      int subgroupOperations,
      boolean preserved32,
      boolean preserved64) {
    VkPhysicalDevice16BitStorageFeatures bits16 =
        VkPhysicalDevice16BitStorageFeatures.calloc(stack).sType$Default();
    VkPhysicalDeviceFeatures2 features =
        VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(bits16);
    var subgroupTypes =
        chainIf(
            extensions,
            DeviceFeature.SUBGROUP_LONGS,
            features,
            VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures.calloc(stack).sType$Default());
    var int64 =
        chainIf(
            extensions,
            DeviceFeature.LONG_ATOMICS_ON_BUFFERS,
            features,
            VkPhysicalDeviceShaderAtomicInt64Features.calloc(stack).sType$Default());
    var floats =
        chainIf(
            extensions,
            DeviceFeature.FLOAT_ADDS_ON_BUFFERS,
            features,
            VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.calloc(stack).sType$Default());
    var bits8 =
        chainIf(
            extensions,
            DeviceFeature.STORAGE_8BIT,
            features,
            VkPhysicalDevice8BitStorageFeatures.calloc(stack).sType$Default());
    var halves =
        chainIf(
            extensions,
            DeviceFeature.FLOAT16_MATRICES,
            features,
            VkPhysicalDeviceShaderFloat16Int8Features.calloc(stack).sType$Default());
    var matrices =
        chainIf(
            extensions,
            DeviceFeature.COOPERATIVE_MATRICES,
            features,
            VkPhysicalDeviceCooperativeMatrixFeaturesKHR.calloc(stack).sType$Default());
    var memoryModel =
        chainIf(
            extensions,
            DeviceFeature.VULKAN_MEMORY_MODEL,
            features,
            VkPhysicalDeviceVulkanMemoryModelFeatures.calloc(stack).sType$Default());
    var bfloats =
        chainIf(
            extensions,
            DeviceFeature.BFLOAT16_MATRICES,
            features,
            VkPhysicalDeviceShaderBfloat16FeaturesKHR.calloc(stack).sType$Default());
    var matrices2 =
        chainIf(
            extensions,
            DeviceFeature.TENSOR_LAYOUTS,
            features,
            VkPhysicalDeviceCooperativeMatrix2FeaturesNV.calloc(stack).sType$Default());
    vkGetPhysicalDeviceFeatures2(device, features);
    Set<DeviceFeature> offered = EnumSet.noneOf(DeviceFeature.class);
    for (DeviceFeature feature : DeviceFeature.values()) {
      boolean has =
          switch (feature) {
            case FLOAT64 -> core.shaderFloat64();
            case INT64 -> core.shaderInt64();
            case STORAGE_8BIT -> bits8.storageBuffer8BitAccess();
            case STORAGE_16BIT -> bits16.storageBuffer16BitAccess();
            case PACKED_SHORTS -> core.shaderInt16() && halves.shaderFloat16();
            case JAVA_FLOATS -> preserved32;
            case JAVA_DOUBLES -> preserved64;
            case SUBGROUPS,
                SUBGROUP_VOTES,
                SUBGROUP_ARITHMETIC,
                SUBGROUP_BALLOTS,
                SUBGROUP_SHUFFLES,
                SUBGROUP_RELATIVE_SHUFFLES,
                SUBGROUP_CLUSTERS,
                SUBGROUP_PARTITIONS ->
                (subgroupOperations & subgroupBit(feature)) != 0;
            case SUBGROUP_LONGS -> subgroupTypes.shaderSubgroupExtendedTypes();
            case LONG_ATOMICS_ON_BUFFERS -> int64.shaderBufferInt64Atomics();
            case LONG_ATOMICS_ON_WORKGROUP -> int64.shaderSharedInt64Atomics();
            case FLOAT_ADDS_ON_BUFFERS -> floats.shaderBufferFloat32AtomicAdd();
            case FLOAT_ADDS_ON_WORKGROUP -> floats.shaderSharedFloat32AtomicAdd();
            case COOPERATIVE_MATRICES -> matrices.cooperativeMatrix();
            case FLOAT16_MATRICES ->
                matrices.cooperativeMatrix()
                    && halves.shaderFloat16()
                    && offersMatrix16x16x16(stack, device, VK_COMPONENT_TYPE_FLOAT16_KHR);
            case BFLOAT16_MATRICES ->
                matrices.cooperativeMatrix()
                    && bfloats.shaderBFloat16Type()
                    && bfloats.shaderBFloat16CooperativeMatrix()
                    && offersMatrix16x16x16(stack, device, VK_COMPONENT_TYPE_BFLOAT16_KHR);
            // with the model enabled, Device scope (every Kiln module's fault record) needs its own
            // feature
            case VULKAN_MEMORY_MODEL ->
                memoryModel.vulkanMemoryModel() && memoryModel.vulkanMemoryModelDeviceScope();
            case TENSOR_LAYOUTS ->
                matrices.cooperativeMatrix()
                    && matrices2.cooperativeMatrixWorkgroupScope()
                    && matrices2.cooperativeMatrixFlexibleDimensions()
                    && matrices2.cooperativeMatrixTensorAddressing();
          };
      if (has) {
        offered.add(feature);
      }
    }
    return offered;
  }

  /**
   * Puts the feature structure {@code struct} at the head of {@code features}' chain, where the
   * device has {@code feature}'s extensions (every such structure starts with sType and pNext), and
   * returns it: its fields read false where it was not chained.
   */
  private static <T extends Struct<T>> T chainIf(
      List<String> extensions,
      DeviceFeature feature,
      VkPhysicalDeviceFeatures2 features,
      T struct) {
    if (extensions.containsAll(feature.vulkanExtensions())) {
      MemoryUtil.memPutAddress(struct.address() + VkBaseOutStructure.PNEXT, features.pNext());
      features.pNext(struct.address());
    }
    return struct;
  }

  /**
   * Whether the driver lists the shape Kiln's matrices have: 16 x 16 x 16 of subgroup scope, A and
   * B of {@code component} (float16 or bfloat16), float accumulator and result.
   */
  private static boolean offersMatrix16x16x16(
      MemoryStack stack, VkPhysicalDevice device, int component) {
    java.nio.IntBuffer count = stack.mallocInt(1);
    vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(device, count, null);
    try (MemoryStack frame = MemoryStack.stackPush()) {
      VkCooperativeMatrixPropertiesKHR.Buffer shapes =
          VkCooperativeMatrixPropertiesKHR.calloc(count.get(0), frame);
      shapes.forEach(shape -> shape.sType$Default());
      vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(device, count, shapes);
      for (VkCooperativeMatrixPropertiesKHR shape : shapes) {
        if (shape.MSize() == 16
            && shape.NSize() == 16
            && shape.KSize() == 16
            && shape.AType() == component
            && shape.BType() == component
            && shape.CType() == VK_COMPONENT_TYPE_FLOAT32_KHR
            && shape.ResultType() == VK_COMPONENT_TYPE_FLOAT32_KHR
            && shape.scope() == VK_SCOPE_SUBGROUP_KHR) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The device's Vulkan 1.0 features to enable: those of {@code offered} among them.
   *
   * @param offered the features the device offers
   */
  static VkPhysicalDeviceFeatures core(MemoryStack stack, Set<DeviceFeature> offered) {
    return VkPhysicalDeviceFeatures.calloc(stack)
        .shaderFloat64(offered.contains(DeviceFeature.FLOAT64))
        .shaderInt64(offered.contains(DeviceFeature.INT64))
        .shaderInt16(offered.contains(DeviceFeature.PACKED_SHORTS));
  }

  /**
   * The feature structures that enable the features the device offers, chained for
   * VkDeviceCreateInfo's pNext, with their rows' extensions added to {@code extensions}.
   *
   * @param offered the features the device offers
   * @param extensions the extensions to enable, added to
   * @return the chain's head
   */
  static long enabled(MemoryStack stack, Set<DeviceFeature> offered, List<String> extensions) {
    Set<String> needed = new LinkedHashSet<>();
    offered.forEach(feature -> needed.addAll(feature.vulkanExtensions()));
    needed.removeAll(extensions);
    extensions.addAll(needed);
    long next =
        VkPhysicalDevice16BitStorageFeatures.calloc(stack)
            .sType$Default()
            .storageBuffer16BitAccess(offered.contains(DeviceFeature.STORAGE_16BIT))
            .address();
    if (offered.contains(DeviceFeature.SUBGROUP_LONGS)) {
      next =
          VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures.calloc(stack)
              .sType$Default()
              .pNext(next)
              .shaderSubgroupExtendedTypes(true)
              .address();
    }
    if (offered.contains(DeviceFeature.COOPERATIVE_MATRICES)) {
      next =
          VkPhysicalDeviceCooperativeMatrixFeaturesKHR.calloc(stack)
              .sType$Default()
              .pNext(next)
              .cooperativeMatrix(true)
              .address();
    }
    if (offered.contains(DeviceFeature.FLOAT16_MATRICES)
        || offered.contains(DeviceFeature.PACKED_SHORTS)) {
      next =
          VkPhysicalDeviceShaderFloat16Int8Features.calloc(stack)
              .sType$Default()
              .pNext(next)
              .shaderFloat16(true)
              .address();
    }
    if (offered.contains(DeviceFeature.BFLOAT16_MATRICES)) {
      next =
          VkPhysicalDeviceShaderBfloat16FeaturesKHR.calloc(stack)
              .sType$Default()
              .pNext(next)
              .shaderBFloat16Type(true)
              .shaderBFloat16CooperativeMatrix(true)
              .address();
    }
    if (offered.contains(DeviceFeature.TENSOR_LAYOUTS)) {
      next =
          VkPhysicalDeviceCooperativeMatrix2FeaturesNV.calloc(stack)
              .sType$Default()
              .pNext(next)
              .cooperativeMatrixWorkgroupScope(true)
              .cooperativeMatrixFlexibleDimensions(true)
              .cooperativeMatrixTensorAddressing(true)
              .address();
    }
    if (offered.contains(DeviceFeature.VULKAN_MEMORY_MODEL)) {
      next =
          VkPhysicalDeviceVulkanMemoryModelFeatures.calloc(stack)
              .sType$Default()
              .pNext(next)
              .vulkanMemoryModel(true)
              .vulkanMemoryModelDeviceScope(true)
              .address();
    }
    if (offered.contains(DeviceFeature.STORAGE_8BIT)) {
      next =
          VkPhysicalDevice8BitStorageFeatures.calloc(stack)
              .sType$Default()
              .pNext(next)
              .storageBuffer8BitAccess(true)
              .address();
    }
    boolean longsOnBuffers = offered.contains(DeviceFeature.LONG_ATOMICS_ON_BUFFERS);
    boolean longsOnWorkgroup = offered.contains(DeviceFeature.LONG_ATOMICS_ON_WORKGROUP);
    if (longsOnBuffers || longsOnWorkgroup) {
      next =
          VkPhysicalDeviceShaderAtomicInt64Features.calloc(stack)
              .sType$Default()
              .pNext(next)
              .shaderBufferInt64Atomics(longsOnBuffers)
              .shaderSharedInt64Atomics(longsOnWorkgroup)
              .address();
    }
    boolean addsOnBuffers = offered.contains(DeviceFeature.FLOAT_ADDS_ON_BUFFERS);
    boolean addsOnWorkgroup = offered.contains(DeviceFeature.FLOAT_ADDS_ON_WORKGROUP);
    if (addsOnBuffers || addsOnWorkgroup) {
      next =
          VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.calloc(stack)
              .sType$Default()
              .pNext(next)
              .shaderBufferFloat32AtomicAdd(addsOnBuffers)
              .shaderSharedFloat32AtomicAdd(addsOnWorkgroup)
              .address();
    }
    return next;
  }
}
